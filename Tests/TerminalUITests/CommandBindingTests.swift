import Radio
import Testing
@testable import TerminalUI
@testable import TUIHarness

/// `[keys]` entries that bind a key to a command line: parsed by the same parser as
/// headless stdin, sent exactly, listed in the help, and refused clearly when wrong.
@Suite struct CommandBindingTests {
    static let main: [KeyContext] = [.global, .song]

    @Test func aKeyBoundToACommandLineSendsExactlyThatCommand() throws {
        let keymap = try Keymap(overrides: ["ctrl+r": "channel -3", "9": "volume 90", "G": "seek 0", "x": "SKIP"])
        var state = InteractionState(keymap: keymap)
        let sent = InteractionStateTests.press([.control("r"), .character("9"), .character("G"), .character("x")],
                                               &state, snapshot: Fixtures.ascii)
        #expect(sent == [.channel("-3"), .volume(90), .seek(.absolute(0)), .skip])
    }

    @Test func rowsAreNamedByTheirCommandLineAndPlacedByWhetherTheyNeedASong() throws {
        let keymap = try Keymap(overrides: ["ctrl+r": "channel -3", "G": "seek 0", "u": "unlike", "a": "ban"])
        let rows = keymap.bindings.filter(\.isCommandBinding)
        // In the order of the entries' names, sorted: G, a, ctrl+r, u.
        #expect(rows.map(\.action) == ["seek 0", "trash", "channel -3", "unlike"])
        #expect(rows.map(\.context) == [.song, .song, .global, .song])
        #expect(rows.map(\.effect) == [.command(.seek(.absolute(0))), .command(.trash), .command(.channel("-3")),
                                       .command(.unlike)])
        #expect(keymap.binding(for: .control("r"), in: Self.main)?.help == "send “channel -3”")
    }

    @Test func twoKeysForOneCommandShareItsRowAndTakeKeysFromDefaults() throws {
        let keymap = try Keymap(overrides: ["9": "volume 90", "F9": "volume 90", "n": "volume 10"])
        let rows = keymap.bindings.filter(\.isCommandBinding)
        #expect(rows.map(\.action) == ["volume 90", "volume 10"])
        #expect(rows[0].keys == [.function(9), .character("9")] || rows[0].keys == [.character("9"), .function(9)])
        #expect(keymap.action(for: .character("n"), in: Self.main) == .command(.volume(10)))
        #expect(keymap.keys(for: "skip") == [], "n was skip's default; the entry took it")
    }

    @Test func loginAndQuitBoundAsCommandsActLikeTheirKeys() throws {
        let keymap = try Keymap(overrides: ["ctrl+g": "login", "Q": "exit"])
        #expect(keymap.action(for: .control("g"), in: Self.main) == .openLogin)
        #expect(keymap.action(for: .character("Q"), in: Self.main) == .quit)
    }

    @Test func theActionFormStillWorksBesideIt() throws {
        let keymap = try Keymap(overrides: ["login": "ctrl+l", "ctrl+r": "channel -3"])
        #expect(keymap.keys(for: "login") == [.control("l")])
        #expect(keymap.action(for: .control("r"), in: Self.main) == .command(.channel("-3")))
    }

    @Test func aBadCommandLineOrNameIsATypedErrorNamingTheEntry() {
        #expect(throws: KeymapError.invalidCommand(key: "9", line: "volume 900", .invalidArgument(word: "volume", argument: "900"))) {
            try Keymap(overrides: ["9": "volume 900"])
        }
        #expect(throws: KeymapError.invalidCommand(key: "x", line: "dance", .unknownWord("dance"))) {
            try Keymap(overrides: ["x": "dance"])
        }
        #expect(throws: KeymapError.invalidCommand(key: "x", line: "channel", .missingArgument(word: "channel"))) {
            try Keymap(overrides: ["x": "channel"])
        }
        #expect(throws: KeymapError.unknownAction("jump")) { try Keymap(overrides: ["jump": "j"]) }
        #expect(throws: KeymapError.duplicateKey(action: "volume 10", key: "x", otherAction: "skip")) {
            try Keymap(overrides: ["skip": "x", "x": "volume 10"])
        }
        do {
            _ = try Keymap(overrides: ["ctrl+r": "channel"])
            Issue.record("accepted a command without its argument")
        } catch {
            #expect(error.action == "ctrl+r", "the config loader finds the line by this name")
        }
    }

    @Test func theErrorsReadAsOneLineEach() {
        let bad = ErrorText.describe(KeymapError.invalidCommand(key: "9", line: "volume 900",
                                                                 .invalidArgument(word: "volume", argument: "900")))
        #expect(bad == "“volume 900” (bound to 9) is not a command: “900” is not valid for “volume”, e.g. volume 60 (0–100).")
        let dance = ErrorText.describe(KeymapError.invalidCommand(key: "x", line: "dance", .unknownWord("dance")))
        #expect(dance == "“dance” (bound to x) is not a command: there is no command “dance”"
            + " — commands are: pause, resume, toggle, skip, like, unlike, trash, channel <id>, seek <±s|s>,"
            + " live [id], radio, volume <0-100>, mute, status, login, logout, download, downloads <pause|resume|cancel|retry> <id>,"
            + " lyrics-earlier, lyrics-later, history [n], past <like|unlike|trash|download> <sid>, sleep <90s|30m|1h|off>, quit.")
        let unknown = ErrorText.describe(KeymapError.unknownAction("jump"))
        #expect(unknown.hasPrefix("“jump” in [keys] is neither an action nor a key"))
    }

    @Test func theHelpListsTheBindingUnderItsCommandLine() throws {
        let keymap = try Keymap(overrides: ["ctrl+r": "channel -3"])
        let row = try #require(HelpView.helpRows(keymap).first { $0.action == "channel -3" })
        #expect(row.keys == Key.control("r").label)
        #expect(row.help == "send “channel -3”")
        let screen = HelpView.render(keymap, width: 80, height: 30)
        #expect(screen.contains { $0.contains("channel -3") && $0.contains("send “channel -3”") })
    }
}
