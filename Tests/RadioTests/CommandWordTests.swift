import Foundation
import Testing
@testable import Radio

/// The one table of command words: every word and alias parses to its command, every
/// command writes back to a line that parses to itself, and errors name what is wrong.
struct CommandWordTests {
    @Test func everyWordAndAliasParses() throws {
        let expected: [String: RadioCommand] = [
            "pause": .pause, "resume": .resume, "play": .resume, "toggle": .toggle, "skip": .skip, "next": .skip,
            "like": .like, "unlike": .unlike, "trash": .trash, "ban": .trash, "status": .status, "login": .login,
            "logout": .logout, "quit": .quit, "exit": .quit, "channel -3": .channel("-3"), "channel dj": .channel("dj"),
            "seek 30": .seek(.absolute(30)), "seek +10": .seek(.relative(10)), "seek -10.5": .seek(.relative(-10.5)),
            "volume 0": .volume(0), "volume 100": .volume(100), "  SKIP \t": .skip, "Volume 7": .volume(7),
            "download": .download, "downloads pause 3": .downloadControl(.pause, id: 3),
            "downloads RETRY 12": .downloadControl(.retry, id: 12),
            "lyrics-earlier": .lyricsEarlier, "Lyrics-Later": .lyricsLater,
            "history": .history(limit: nil), "history 5": .history(limit: 5),
            "sleep 90s": .sleep(90), "sleep 30m": .sleep(1800), "sleep 1H": .sleep(3600), "sleep 45": .sleep(45),
            "sleep off": .sleep(nil), "sleep 2.5s": .sleep(2.5),
            "past like 41": .pastSong(.like, sid: "41"), "past TRASH abc": .pastSong(.trash, sid: "abc"),
            "live": .live, "LIVE": .live, "radio": .radio, "Radio": .radio, "mute": .mute, "MUTE": .mute,
        ]
        for (line, command) in expected { #expect(try RadioCommand.parse(line) == command, "\(line)") }
        let spelled = Set(CommandWord.table.flatMap { [$0.word] + $0.aliases })
        #expect(spelled == Set(expected.keys.map { $0.split(separator: " ").first!.lowercased() }),
                "the test covers every word and alias of the table")
    }

    @Test func theWordListAndUsageComeFromTheTable() {
        #expect(CommandWord.table.map(\.word) == ["pause", "resume", "toggle", "skip", "like", "unlike", "trash", "channel",
                                       "seek", "live", "radio", "volume", "mute", "status", "login", "logout", "download", "downloads",
                                       "lyrics-earlier", "lyrics-later", "history", "past", "sleep", "quit"])
        #expect(CommandWord.table.map(\.usage).filter { $0.contains("<") }
                == ["channel <id>", "seek <±s|s>", "volume <0-100>", "downloads <pause|resume|cancel|retry> <id>",
                    "past <like|unlike|trash|download> <sid>", "sleep <90s|30m|1h|off>"])
        #expect(CommandWord.table.filter(\.needsSong).map(\.word)
                == ["skip", "like", "unlike", "trash", "seek", "download", "lyrics-earlier", "lyrics-later"])
    }

    @Test func everyCommandWritesALineThatParsesBackToIt() throws {
        let commands: [RadioCommand] = [.pause, .resume, .toggle, .skip, .like, .unlike, .trash, .channel("-3"),
                                        .seek(.absolute(30)), .seek(.relative(-10)), .seek(.relative(2.5)),
                                        .volume(90), .mute, .status, .login, .logout, .live, .quit, .download,
                                        .downloadControl(.cancel, id: 7), .history(limit: nil), .history(limit: 3),
                                        .sleep(90), .sleep(1800), .sleep(7200), .sleep(2.5), .sleep(nil)]
        for command in commands {
            #expect(try RadioCommand.parse(command.line) == command, "\(command.line)")
            #expect(command.word == command.commandWord.word)
        }
        #expect(RadioCommand.seek(.relative(10)).line == "seek +10")
        #expect(RadioCommand.seek(.absolute(7.25)).line == "seek 7.25")
    }

    /// Every row of the table reads back: its word and each alias parse to a command whose
    /// row it is, and that command's `line` parses to the same command. Rows that take an
    /// argument are tried with their example's first line.
    @Test func everyRowOfTheTableRoundTripsThroughParseAndLine() throws {
        #expect(Set(CommandWord.table.map(\.word)).count == CommandWord.table.count, "no word twice")
        let spellings = CommandWord.table.flatMap { [$0.word] + $0.aliases }
        #expect(Set(spellings).count == spellings.count, "no alias is another word or alias")
        for row in CommandWord.table {
            let sample = String(row.example.split(separator: " or ").first!.split(separator: " (").first!)
            let arguments = sample.split(separator: " ").dropFirst().joined(separator: " ")
            for spelling in [row.word] + row.aliases + [row.word.uppercased()] {
                let command = try RadioCommand.parse(arguments.isEmpty ? spelling : "\(spelling) \(arguments)")
                #expect(command.commandWord == row, "\(spelling)")
                #expect(command.word == row.word)
                #expect(command.line == sample, "\(spelling)")
                #expect(try RadioCommand.parse(command.line) == command, "\(command.line)")
                if case .bare(let bare) = row.form { #expect(command == bare) }
            }
            #expect(CommandWord.row(for: row.form) == row)
        }
        #expect(CommandWord.table.filter(\.interactiveOnly).map(\.word) == ["login", "logout"])
    }

    /// The parser reads the rows it is given: a word added to a table parses, with its
    /// aliases and in any case, to the command of its row; a word taken out is unknown.
    @Test func theParserReadsTheTable() throws {
        var table = CommandWord.table.filter { $0.word != "trash" }
        table.append(CommandWord("now", .bare(.status), aliases: ["np"], summary: "tell what is playing"))
        #expect(try RadioCommand.parse("now", in: table) == .status)
        #expect(try RadioCommand.parse(" NP ", in: table) == .status)
        #expect(throws: CommandParseError.unexpectedArgument(word: "now", argument: "1")) {
            try RadioCommand.parse("now 1", in: table)
        }
        #expect(throws: CommandParseError.unknownWord("trash")) { try RadioCommand.parse("trash", in: table) }
        #expect(throws: CommandParseError.unknownWord("now")) { try RadioCommand.parse("now") }
        #expect(try RadioCommand.parse("trash") == .trash)
    }

    /// Every row says what it does, and the keys of a word are its own: the key named as
    /// the word sends it, and only a word whose argument is a quantity has step keys.
    @Test func everyRowHasASummaryAndItsKeysFitItsArgument() {
        for row in CommandWord.table {
            #expect(!row.summary.isEmpty && !row.summary.hasSuffix("."), "\(row.word)")
            for key in row.keys {
                #expect(!key.keys.isEmpty && !key.help.isEmpty, "\(key.name)")
                switch row.form {
                case .bare, .liveTarget: #expect(key.name == row.word && key.step == nil, "\(key.name)")
                case .seekTarget, .percent: #expect(key.name != row.word && key.step != nil && key.step != 0, "\(key.name)")
                case .channelID, .downloadAction, .count, .duration, .pastSong: Issue.record("\(key.name): \(row.word) has no key a press can fill in")
                }
            }
        }
        let names = CommandWord.table.flatMap { $0.keys.map(\.name) }
        #expect(Set(names).count == names.count, "no key name twice")
    }

    /// Inputs `script/fuzz command` found breaking the parser, kept in `Fixtures/fuzz`.
    /// `  CHANNEL\t\u{200D}`: a tab, then a zero-width joiner. Split by Characters, the tab
    /// stood alone and the joiner became the id, but in the line written back, `channel
    /// \u{200D}`, the joiner joined the space into one Character and the line did not split.
    @Test func aJoinerAfterTheSeparatorIsAnArgumentThatReadsBack() throws {
        let url = try #require(Bundle.module.url(forResource: "channel-tab-joiner", withExtension: "txt",
                                                 subdirectory: "Fixtures/fuzz"))
        let found = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        let command = try RadioCommand.parse(found)
        #expect(command == .channel("\u{200D}"))
        #expect(try RadioCommand.parse(command.line) == command)
        for id in ["\u{301}x", "\u{200D}\u{200D}", "\u{FE0F}", "a\u{301}"] {
            let channel = RadioCommand.channel(id)
            #expect(try RadioCommand.parse(channel.line) == channel, "\(channel.line.unicodeScalars.map(\.value))")
        }
        #expect(throws: CommandParseError.invalidArgument(word: "seek", argument: "\u{301}")) {
            try RadioCommand.parse("seek \u{301}")
        }
    }

    /// `live` alone goes back to the live edge; with an id it is a broadcast to listen to.
    @Test func liveTakesAnOptionalChannel() throws {
        #expect(try RadioCommand.parse("live") == .live)
        #expect(try RadioCommand.parse("LIVE -3") == .liveChannel("-3"))
        #expect(RadioCommand.liveChannel("7").line == "live 7")
        #expect(RadioCommand.live.line == "live")
        #expect(RadioCommand.liveChannel("7").commandWord.usage == "live [id]")
        #expect(throws: CommandParseError.unexpectedArgument(word: "live", argument: "2")) { try RadioCommand.parse("live 1 2") }
    }

    @Test func errorsNameWhatIsWrong() {
        #expect(throws: CommandParseError.empty) { try RadioCommand.parse("  ") }
        #expect(throws: CommandParseError.unknownWord("Dance")) { try RadioCommand.parse("Dance now") }
        #expect(throws: CommandParseError.missingArgument(word: "channel")) { try RadioCommand.parse("channel") }
        #expect(throws: CommandParseError.unexpectedArgument(word: "skip", argument: "2")) { try RadioCommand.parse("next 2") }
        #expect(throws: CommandParseError.unexpectedArgument(word: "volume", argument: "2")) {
            try RadioCommand.parse("volume 1 2")
        }
        // Past a year: no clock holds a wait of 10^20 seconds.
        #expect((try? RadioCommand.parse("sleep 8760h")) == .sleep(SleepTime.longest))
        for bad in ["0s", "-5m", "soon", "1d", "m", "nan", "inf", "8761h", "99999999999999999h"] {
            #expect(throws: CommandParseError.invalidArgument(word: "sleep", argument: bad)) { try RadioCommand.parse("sleep \(bad)") }
        }
        #expect(throws: CommandParseError.missingArgument(word: "sleep")) { try RadioCommand.parse("sleep") }
        #expect(throws: CommandParseError.invalidArgument(word: "history", argument: "0")) {
            try RadioCommand.parse("history 0")
        }
        #expect(throws: CommandParseError.unexpectedArgument(word: "history", argument: "2")) {
            try RadioCommand.parse("history 1 2")
        }
        #expect(throws: CommandParseError.invalidArgument(word: "volume", argument: "101")) {
            try RadioCommand.parse("volume 101")
        }
        #expect(throws: CommandParseError.invalidArgument(word: "seek", argument: "inf")) { try RadioCommand.parse("seek inf") }
        #expect(throws: CommandParseError.invalidArgument(word: "downloads", argument: "stop")) {
            try RadioCommand.parse("downloads stop 3")
        }
        #expect(throws: CommandParseError.missingArgument(word: "downloads")) { try RadioCommand.parse("downloads pause") }
        #expect(throws: CommandParseError.invalidArgument(word: "downloads", argument: "x")) {
            try RadioCommand.parse("downloads pause x")
        }
        #expect(throws: CommandParseError.unexpectedArgument(word: "download", argument: "3")) {
            try RadioCommand.parse("download 3")
        }
    }
}
