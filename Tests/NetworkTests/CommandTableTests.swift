import Companions
import Foundation
@testable import Radio
import TerminalUI
import Testing
@testable import mhz

/// The command table as the CLI shows it: the manual's Commands list, `mhz ctl --help`
/// and headless stdin's error lines are made from `CommandWord.table` (or the table
/// given), so a word added, changed or taken out shows everywhere at once.
struct CommandTableTests {
    /// A table with `trash` taken out and a word `now` added.
    static let changed = CommandWord.table.filter { $0.word != "trash" }
        + [CommandWord("now", .bare(.status), aliases: ["np"], summary: "tell what is playing", keys: ["w"])]

    @Test func theManualListsEveryCommandWithItsSummaryAliasesAndKeys() {
        let page = ManualPage.complete(ManualPageTests.generated)
        let section = page.components(separatedBy: ".Ss Commands\n")
        #expect(section.count == 2, "one Commands list")
        let list = section.last ?? ""
        for row in CommandWord.table {
            let tag = row.usage.contains(" ") ? ".It Cm \"\(row.usage)\"\n" : ".It Cm \\&\(row.usage)\n"
            #expect(list.contains(tag + row.summary + ".\n"), "\(row.word)")
        }
        #expect(list.contains(".It Cm \\&skip\nskip to the next song.\nAlso next.\nDefault keys: n.\n"))
        #expect(list.contains(".It Cm \"seek <±s|s>\"\n"
            + "go to this second of the song, or this many seconds on or back (+10, -10).\n"
            + "Default keys: right (seek-forward), left (seek-back).\n"))
        #expect(list.contains(".It Cm \\&logout\nforget the session.\n"
            + "Headless stdin and mhz ctl answer that it is not available; mhz logout does it.\n"))
    }

    @Test func theManualAndCtlHelpFollowTheTableTheyAreGiven() {
        let manual = ManualSections.commands(Self.changed).joined(separator: "\n")
        #expect(manual.contains(".It Cm \\&now\ntell what is playing.\nAlso np.\nDefault keys: w."))
        // `past`'s summary names trash among its actions; the trash row itself is gone.
        #expect(!manual.contains("Cm \\&trash"))
        let ctl = CtlCommand.discussion(Self.changed)
        #expect(ctl.hasPrefix("Commands are those of headless stdin: pause, resume, toggle, skip, like, unlike, "
            + "channel <id>, seek <±s|s>, live [id], radio, volume <0-100>, mute, status, download, downloads <pause|resume|cancel|retry> <id>, "
            + "lyrics-earlier, lyrics-later, history [n], past <like|unlike|trash|download> <sid>, sleep <90s|30m|1h|off>, quit, now. Each prints one JSON line;"))
        #expect(CtlCommand.configuration.discussion == CtlCommand.discussion(CommandWord.table))
        #expect(CtlCommand.configuration.discussion.contains(" trash, "))
    }

    @Test func aReaderOffersTheWordsItCarriesOutAndItsOwn() {
        let offered = CommandWord.table.filter { !$0.interactiveOnly }.map(\.usage).joined(separator: ", ")
        #expect(ErrorText.describe(.unknownWord("rewind"), for: .reader(also: []))
                == "there is no command “rewind” — commands are: " + offered)
        #expect(Self.socketError("rewind") == "there is no command “rewind” — commands are: " + offered + ", follow")
        #expect(offered.hasPrefix("pause, resume, toggle, skip, like, unlike, trash, channel <id>, "))
        #expect(!offered.contains("login"))
        #expect(Self.socketError("downloads") == "“downloads” needs an argument, e.g. downloads pause 3")
    }

    /// The desktop guide's list of the commands headless stdin reads, in its order, as the
    /// words between its backticks.
    static func guideCommands() throws -> String {
        let text = try String(contentsOf: EventNameTests.desktopGuide, encoding: .utf8)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let start = try #require(text.range(of: "`--headless` reads commands from stdin, one per line — `"),
                                 "the desktop guide lists headless stdin's commands")
        return String(text[start.upperBound...].prefix { $0 != "`" })
    }

    @Test func theDesktopGuideListsTheCommandsHeadlessStdinCarriesOutAsTheTableHasThem() throws {
        #expect(try Self.guideCommands()
                == CommandWord.table.filter { !$0.interactiveOnly }.map(\.usage).joined(separator: " "))
    }

    /// The default history limit shows in `history`'s summary as the session applies it.
    @Test func historySaysItsDefaultLimit() {
        #expect(CommandWord.row(for: .count).summary
                == "list the songs played, newest first (the last \(RadioCommand.defaultHistoryLimit), or this many)")
    }

    /// `sleep`'s summary, `mhz --sleep`'s help and its refusal give the times a sleep timer
    /// takes in the same words, with the limit ``SleepTime/seconds(_:)`` holds them to.
    @Test func theSleepTimesAreWordedOnceWithTheirLimit() {
        let times = "90s, 30m or 1h, at most 8760h"
        #expect(SleepTime.seconds("8760h") != nil && SleepTime.seconds("8761h") == nil)
        #expect(CommandWord.row(for: .duration).summary
                == "fade out and quit after this long (\(times)), saving where you were; off cancels")
        let help = PlayCommand.helpMessage(columns: 1000)
        #expect(help.contains("Fade out and quit after this long (\(times)), saving where you were."), "\(help)")
        var refusal = ""
        do { _ = try PlayCommand.parse(["--sleep", "9000h"]) } catch { refusal = PlayCommand.message(for: error) }
        #expect(refusal == "--sleep takes a time like \(times), not \"9000h\"")
    }

    /// A radio that is never asked anything: a line that is not a command never reaches it.
    struct Unasked: RadioControl, AnsweringSession {
        func send(_ command: RadioCommand) async {}
        func currentSnapshot() async -> RadioSnapshot { RadioSnapshot() }
        func history(limit: Int?) async -> [ListenEntry] { [] }
    }

    /// The control socket's error for `line`.
    static func socketError(_ line: String) -> String? {
        let answers = ControlAnswers(pump: CommandPump(session: Unasked()), session: Unasked())
        guard case .answer(let json) = answers.reply(to: .text(line)),
              let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return nil }
        return object["error"] as? String
    }

    @Test func theControlSocketSaysWhatAKeysLineSaysOfTheSameLine() throws {
        for line in ["rewind", "volume 900", "channel", "skip now", "downloads stop 3"] {
            let error = try #require(Self.parseError(line))
            let keys = ErrorText.describe(KeymapError.invalidCommand(key: "x", line: line, error))
            let socket = try #require(Self.socketError(line))
            #expect(socket.hasPrefix(ErrorText.describe(error)), "\(line): \(socket)")
            #expect(keys.contains("is not a command: " + ErrorText.describe(error)), "\(line): \(keys)")
        }
    }

    static func parseError(_ line: String) -> CommandParseError? {
        do throws(CommandParseError) {
            _ = try RadioCommand.parse(line)
            return nil
        } catch {
            return error
        }
    }
}
