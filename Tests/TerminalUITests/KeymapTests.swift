import Radio
import Testing
@testable import TerminalUI
@testable import TUIHarness

/// The key table: defaults, overrides by action name, typed errors, and the hint line
/// and help generated from it.
@Suite struct KeymapTests {
    static let main: [KeyContext] = [.global, .song]

    @Test func defaultsResolve() {
        let keymap = Keymap.standard
        #expect(keymap.action(for: .character(" "), in: Self.main) == .command(.toggle))
        #expect(keymap.action(for: .character("n"), in: Self.main) == .command(.skip))
        #expect(keymap.action(for: .character("l"), in: Self.main) == .toggleLike)
        #expect(keymap.action(for: .character("b"), in: Self.main) == .command(.trash))
        #expect(keymap.action(for: .character("c"), in: Self.main) == .openChannels)
        #expect(keymap.action(for: .character("q"), in: Self.main) == .quit)
        #expect(keymap.action(for: .character("?"), in: Self.main) == .help)
        #expect(keymap.action(for: .character("h"), in: Self.main) == .help)
        #expect(keymap.action(for: .character("+"), in: Self.main) == .volumeStep(5))
        #expect(keymap.action(for: .character("-"), in: Self.main) == .volumeStep(-5))
        #expect(keymap.action(for: .right, in: Self.main) == .command(.seek(.relative(10))))
        #expect(keymap.action(for: .left, in: Self.main) == .command(.seek(.relative(-10))))
        #expect(keymap.action(for: .character("N"), in: Self.main) == nil, "case matters")
        #expect(keymap.action(for: .character("j"), in: Self.main) == nil, "list keys stay in the list")
        #expect(keymap.action(for: .character("q"), in: [.channelList]) == .close)
    }

    @Test func likeTogglesByState() {
        var snapshot = Fixtures.ascii
        snapshot.track?.liked = false
        #expect(KeyAction.toggleLike.command(for: snapshot) == .like)
        snapshot.track?.liked = true
        #expect(KeyAction.toggleLike.command(for: snapshot) == .unlike)
    }

    @Test func volumeStepsClamp() {
        var snapshot = RadioSnapshot(volume: 98)
        #expect(KeyAction.volumeStep(5).command(for: snapshot) == .volume(100))
        snapshot.volume = 3
        #expect(KeyAction.volumeStep(-5).command(for: snapshot) == .volume(0))
        #expect(KeyAction.openChannels.command(for: snapshot) == nil)
        #expect(KeyAction.quit.command(for: snapshot) == .quit)
    }

    @Test func overridesByActionName() throws {
        let keymap = try Keymap(overrides: ["skip": "N", "toggle": "space", "seek-forward": "F5",
                                            "help": "? F1", "trash": "ctrl+x", "volume-up": "none"])
        #expect(keymap.action(for: .character("N"), in: Self.main) == .command(.skip))
        #expect(keymap.action(for: .character("n"), in: Self.main) == nil)
        #expect(keymap.action(for: .character(" "), in: Self.main) == .command(.toggle))
        #expect(keymap.action(for: .function(5), in: Self.main) == .command(.seek(.relative(10))))
        #expect(keymap.action(for: .right, in: Self.main) == nil)
        #expect(keymap.keys(for: "help") == [.character("?"), .function(1)])
        #expect(keymap.action(for: .control("x"), in: Self.main) == .command(.trash))
        #expect(keymap.keys(for: "volume-up") == [])
    }

    @Test func anOverrideTakesItsKeyFromADefault() throws {
        let keymap = try Keymap(overrides: ["skip": "l"])
        #expect(keymap.action(for: .character("l"), in: Self.main) == .command(.skip))
        #expect(keymap.keys(for: "like") == [])
        // The channel list is another screen: its `c` and `q` are untouched by this.
        let other = try Keymap(overrides: ["help": "c"])
        #expect(other.keys(for: "channels") == [])
        #expect(other.action(for: .character("c"), in: [.channelList]) == .close)
    }

    @Test func unknownActionIsATypedErrorNamingIt() {
        #expect(throws: KeymapError.unknownAction("jump")) {
            try Keymap(overrides: ["skip": "n", "jump": "j"])
        }
        do {
            _ = try Keymap(overrides: ["jump": "j"])
            Issue.record("accepted an unknown action")
        } catch {
            #expect(error.action == "jump")
        }
    }

    @Test func badKeyIsATypedErrorNamingTheAction() {
        #expect(throws: KeymapError.invalidKey(action: "skip", key: "sapce")) {
            try Keymap(overrides: ["skip": "sapce"])
        }
        #expect(throws: KeymapError.invalidKey(action: "quit", key: "F99")) {
            try Keymap(overrides: ["quit": "F99"])
        }
        #expect(throws: KeymapError.invalidKey(action: "like", key: "")) {
            try Keymap(overrides: ["like": ""])
        }
        #expect(throws: KeymapError.duplicateKey(action: "trash", key: "x", otherAction: "skip")) {
            try Keymap(overrides: ["skip": "x", "trash": "x"])
        }
    }

    @Test func keyNamesParseAndRoundTrip() {
        #expect(Key.parse("space") == .character(" "))
        #expect(Key.parse("Space") == .character(" "))
        #expect(Key.parse(" ") == .character(" "))
        #expect(Key.parse("left") == .left)
        #expect(Key.parse("F5") == .function(5))
        #expect(Key.parse("f12") == .function(12))
        #expect(Key.parse("C-l") == .control("l"))
        #expect(Key.parse("^L") == .control("l"))
        #expect(Key.parse("中") == .character("中"))
        #expect(Key.parse("F0") == nil)
        #expect(Key.parse("ctrl+1") == nil)
        #expect(Key.parse("\u{1B}") == nil)
        let keys: [Key] = [.character(" "), .character("n"), .character("+"), .control("l"), .enter, .escape,
                           .tab, .backspace, .delete, .up, .down, .left, .right, .home, .end, .pageUp,
                           .pageDown, .function(5)]
        for key in keys {
            #expect(Key.parse(key.name) == key, "\(key.name)")
        }
    }

    @Test func characterCodesFromTheTerminal() {
        #expect(Key(code: 13) == .enter)
        #expect(Key(code: 10) == .enter)
        #expect(Key(code: 27) == .escape)
        #expect(Key(code: 127) == .backspace)
        #expect(Key(code: 12) == .control("l"))
        #expect(Key(code: 0x20) == .character(" "))
        #expect(Key(code: 0x4E2D) == .character("中"))
        #expect(Key(code: 0) == nil)
        #expect(Key(code: 0x9B) == nil)
    }

    @Test func hintLineDropsWholeItemsLeastImportantFirst() throws {
        let keymap = Keymap.standard
        #expect(keymap.hintLine(for: Self.main, columns: 76)
            == "space toggle  n skip  l like  b trash  c channels  ? help  q quit")
        #expect(keymap.hintLine(for: Self.main, columns: 36) == "space toggle  n skip  ? help  q quit")
        #expect(keymap.hintLine(for: Self.main, columns: 14) == "? help  q quit")
        #expect(keymap.hintLine(for: Self.main, columns: 5) == "")
        #expect(keymap.hintLine(for: [.channelList], columns: 80) == "↑ up  ↓ down  enter choose  L live  esc close")
        #expect(keymap.hintLine(for: [.downloads], columns: 80) == "p pause  x cancel  r retry  esc close")
        #expect(try Keymap(overrides: ["downloads-retry": "R"]).hintLine(for: [.downloads], columns: 80)
            == "p pause  x cancel  R retry  esc close")
    }

    @Test func helpListsEveryActionFromTheTable() throws {
        let keymap = try Keymap(overrides: ["skip": "N", "like": "none"])
        let help = HelpView.render(keymap, width: 100, height: 70)
        for action in Keymap.actionNames {
            #expect(help.contains { $0.contains(" \(action) ") }, "\(action)")
        }
        #expect(help.contains(DisplayWidth.pad("  N        skip              skip to the next song", to: 100)))
        #expect(help.contains(DisplayWidth.pad("  p        downloads-pause   pause the selected download, or resume it", to: 100)))
        #expect(help.contains { $0.hasPrefix("  (none)   like  ") })
        #expect(HelpView.helpRows(keymap).count == KeyBinding.defaults.count)
    }
}
