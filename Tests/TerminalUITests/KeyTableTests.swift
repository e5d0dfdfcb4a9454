@testable import Radio
import Testing
@testable import TerminalUI

/// The key table against the command table: the keys of command words are the command
/// table's, the UI's own actions have names no command uses, a change to the command
/// table shows in the key table and the help screen, and every action name config files
/// have used still binds what it bound.
@Suite struct KeyTableTests {
    static let main: [KeyContext] = [.global, .song]

    /// Every action name `[keys]` has accepted, with what a key bound to it does; the
    /// downloads view's is its former name, `downloads`.
    static let namesInTheWild: [(name: String, effect: KeyAction, contexts: [KeyContext])] = [
        ("toggle", .command(.toggle), main), ("skip", .command(.skip), main), ("like", .toggleLike, main),
        ("trash", .command(.trash), main), ("download", .command(.download), main),
        ("downloads", .openDownloads, main), ("channels", .openChannels, main), ("login", .openLogin, main),
        ("volume-up", .volumeStep(5), main), ("volume-down", .volumeStep(-5), main),
        ("variety-up", .varietyStep(0.1), main), ("variety-down", .varietyStep(-0.1), main),
        ("seek-forward", .command(.seek(.relative(10))), main), ("seek-back", .command(.seek(.relative(-10))), main),
        ("help", .help, main), ("quit", .quit, main),
        ("lyrics-earlier", .command(.lyricsEarlier), main), ("lyrics-later", .command(.lyricsLater), main),
        ("list-up", .moveSelection(-1), [.channelList]), ("list-down", .moveSelection(1), [.channelList]),
        ("list-page-up", .moveSelection(-10), [.channelList]), ("list-page-down", .moveSelection(10), [.channelList]),
        ("list-choose", .choose, [.channelList]), ("list-close", .close, [.channelList]),
        ("list-filter", .startFilter, [.channelList]),
        ("downloads-up", .moveSelection(-1), [.downloads]), ("downloads-down", .moveSelection(1), [.downloads]),
        ("downloads-pause", .pauseDownload, [.downloads]), ("downloads-cancel", .cancelDownload, [.downloads]),
        ("downloads-retry", .retryDownload, [.downloads]), ("downloads-close", .close, [.downloads]),
        ("lyrics-view", .openLyrics, main),
        ("lyrics-up", .moveSelection(-1), [.lyrics]), ("lyrics-down", .moveSelection(1), [.lyrics]),
        ("lyrics-page-up", .moveSelection(-10), [.lyrics]), ("lyrics-page-down", .moveSelection(10), [.lyrics]),
        ("lyrics-close", .close, [.lyrics]),
        // The history view's, added with the view.
        ("history-view", .openHistory, main),
        ("history-up", .moveSelection(-1), [.history]), ("history-down", .moveSelection(1), [.history]),
        ("history-page-up", .moveSelection(-10), [.history]), ("history-page-down", .moveSelection(10), [.history]),
        ("history-like", .likePast, [.history]), ("history-trash", .trashPast, [.history]),
        ("history-download", .downloadPast, [.history]), ("history-close", .close, [.history]),
        // Added with live channels (`mhz --live`).
        ("live", .command(.live), main),
        ("list-live", .chooseLive, [.channelList]),
        // Added with the way back from a live channel to the radio.
        ("radio", .command(.radio), main),
        // Added with mute.
        ("mute", .command(.mute), main),
    ]

    @Test func everyActionNameConfigFilesUsedStillBindsWhatItDid() throws {
        for entry in Self.namesInTheWild {
            let keymap = try Keymap(overrides: [entry.name: "F9"])
            #expect(keymap.action(for: .function(9), in: entry.contexts) == entry.effect, "\(entry.name)")
            #expect(keymap.keys(for: entry.name) == [.function(9)], "\(entry.name)")
        }
        // The one name that changed is still accepted under its old spelling.
        #expect(Set(Self.namesInTheWild.map(\.name)).subtracting(Keymap.actionNames) == ["downloads"])
        #expect(Keymap.formerNames.map(\.former) == ["downloads"] && Keymap.formerNames.map(\.current) == ["downloads-view"])
        #expect(Keymap.actionNames.count == Self.namesInTheWild.count)
    }

    /// `downloads` is the command word that pauses, resumes, cancels or retries one
    /// download; the key that opens the downloads view is `downloads-view`.
    @Test func theDownloadsViewIsNamedApartFromTheDownloadsCommand() throws {
        #expect(Keymap.standard.binding(for: .character("D"), in: Self.main)?.action == "downloads-view")
        #expect(try Keymap(overrides: ["downloads-view": "F2"]).action(for: .function(2), in: Self.main) == .openDownloads)
        #expect(throws: KeymapError.formerName("downloads", current: "downloads-view")) {
            try Keymap(overrides: ["downloads-view": "F2", "downloads": "F3"])
        }
        #expect(KeymapError.formerName("downloads", current: "downloads-view").action == "downloads",
                "the config loader points at the line to delete")
        #expect(ErrorText.describe(KeymapError.formerName("downloads", current: "downloads-view"))
            == "“downloads” in [keys] is the former name of “downloads-view”, which [keys] also binds — "
            + "keep only “downloads-view”.")
        // A former name's errors name the entry as written, so its line is found.
        #expect(throws: KeymapError.duplicateKey(action: "skip", key: "x", otherAction: "downloads")) {
            try Keymap(overrides: ["downloads": "x", "skip": "x"])
        }
    }

    /// The now-playing screen's rows as they were written out by hand before they were
    /// made from the command table: the same names, keys, places, effects, help and hint
    /// ranks, in the same order (the downloads view under its new name).
    @Test func thePlayingScreenIsTheTableItWasBeforeItWasMadeFromTheCommands() {
        let expected: [KeyBinding] = [
            KeyBinding(action: "toggle", keys: [.character(" ")], context: .global,
                       effect: .command(.toggle), help: "pause or resume", hintRank: 2),
            KeyBinding(action: "skip", keys: [.character("n")], context: .song,
                       effect: .command(.skip), help: "skip to the next song", hintRank: 3),
            KeyBinding(action: "like", keys: [.character("l")], context: .song,
                       effect: .toggleLike, help: "like the song, or unlike it if liked (♥)", hintRank: 4),
            KeyBinding(action: "trash", keys: [.character("b")], context: .song,
                       effect: .command(.trash), help: "never play this song again", hintRank: 6),
            KeyBinding(action: "download", keys: [.character("d")], context: .song,
                       effect: .command(.download), help: "download the song for offline listening", hintRank: 7),
            KeyBinding(action: "downloads-view", keys: [.character("D")], context: .global,
                       effect: .openDownloads, help: "show the downloads (pause, cancel, retry)",
                       formerNames: ["downloads"]),
            // The history view's key, added with the view (not in the hand-written table).
            KeyBinding(action: "history-view", keys: [.character("H")], context: .global,
                       effect: .openHistory, help: "show the songs played, to act on one of them"),
            KeyBinding(action: "channels", keys: [.character("c")], context: .global,
                       effect: .openChannels, help: "choose another channel", hintRank: 5),
            // The lyrics view's key, added with the view.
            KeyBinding(action: "lyrics-view", keys: [.character("y")], context: .global,
                       effect: .openLyrics, help: "show the song's lyrics, the line being sung highlighted"),
            KeyBinding(action: "login", keys: [.character("L")], context: .global,
                       effect: .openLogin, help: "log in (or again, after the session expired)"),
            KeyBinding(action: "volume-up", keys: [.character("+"), .character("=")], context: .global,
                       effect: .volumeStep(5), help: "volume up 5"),
            KeyBinding(action: "volume-down", keys: [.character("-")], context: .global,
                       effect: .volumeStep(-5), help: "volume down 5"),
            // Added with mute.
            KeyBinding(action: "mute", keys: [.character("m")], context: .global,
                       effect: .command(.mute), help: "turn the volume to 0, or back to where it was"),
            // The variety dial's keys, added with the dial (not in the hand-written table).
            KeyBinding(action: "variety-up", keys: [.character("]")], context: .global,
                       effect: .varietyStep(0.1), help: "more new songs in the next lists (variety +0.1)"),
            KeyBinding(action: "variety-down", keys: [.character("[")], context: .global,
                       effect: .varietyStep(-0.1), help: "more of what you love in the next lists (variety −0.1)"),
            KeyBinding(action: "seek-forward", keys: [.right], context: .song,
                       effect: .command(.seek(.relative(10))), help: "forward 10 seconds"),
            KeyBinding(action: "seek-back", keys: [.left], context: .song,
                       effect: .command(.seek(.relative(-10))), help: "back 10 seconds"),
            // Added with live channels (`mhz --live`).
            KeyBinding(action: "live", keys: [.character("e")], context: .global, effect: .command(.live),
                       help: "on a live channel (mhz --live), go back to the live edge"),
            // Added with the way back from a live channel to the radio.
            KeyBinding(action: "radio", keys: [.character("r")], context: .global, effect: .command(.radio),
                       help: "on a live channel, back to the radio (the channel it played)"),
            KeyBinding(action: "help", keys: [.character("?"), .character("h")], context: .global,
                       effect: .help, help: "show this help", hintRank: 0),
            KeyBinding(action: "quit", keys: [.character("q")], context: .global,
                       effect: .quit, help: "quit, saving where you were", hintRank: 1),
            // Added since, from the command table's rows with keys.
            KeyBinding(action: "lyrics-earlier", keys: [.character("}")], context: .song,
                       effect: .command(.lyricsEarlier), help: "show the song's lyric lines 0.5 s earlier (kept for the song)"),
            KeyBinding(action: "lyrics-later", keys: [.character("{")], context: .song,
                       effect: .command(.lyricsLater), help: "show the song's lyric lines 0.5 s later (kept for the song)"),
        ]
        let playing = KeyBinding.defaults.filter { Self.main.contains($0.context) }
        #expect(playing.count == expected.count)
        for (row, want) in zip(playing, expected) { #expect(row == want, "\(want.action)") }
    }

    /// Every default key of the command table is a row of the key table: named as the
    /// table names it, with its keys, its help, among the song keys when the word needs a
    /// song; and every row of the now-playing screen is either such a key or one of the
    /// UI's own, whose names are no command word.
    @Test func theKeysOfCommandWordsAreTheCommandTablesKeys() {
        var fromTable: [String] = []
        for word in CommandWord.table {
            for key in word.keys {
                fromTable.append(key.name)
                let row = KeyBinding.defaults.first { $0.action == key.name }
                #expect(!key.keys.isEmpty && key.keys.allSatisfy { Key.parse($0) != nil }, "\(key.name): every key parses")
                #expect(row?.keys == key.keys.compactMap(Key.parse), "\(key.name)")
                #expect(row?.help == key.help, "\(key.name)")
                #expect(row?.context == (word.needsSong ? .song : .global), "\(key.name)")
                #expect(row?.effect == KeyAction(word, key: key), "\(key.name)")
                // A key named as its word sends the word's command (the UI's way for like,
                // login and quit); a step key moves the word's argument.
                if key.name == word.word { #expect(key.step == nil, "\(key.name)") } else { #expect(key.step != nil) }
            }
        }
        for row in KeyBinding.defaults where Self.main.contains(row.context) && !fromTable.contains(row.action) {
            #expect(CommandWord(parsing: row.action) == nil, "the UI's own \(row.action) is no command word")
        }
        #expect(fromTable == ["toggle", "skip", "like", "trash", "seek-forward", "seek-back", "live", "radio",
                              "volume-up", "volume-down", "mute", "login", "download", "lyrics-earlier", "lyrics-later", "quit"])
    }

    /// A word added to the command table with a key gets a row in the key table, the
    /// help screen and the hint-free end of the now-playing keys; a word taken out loses
    /// its row; a key changed in the table is changed on screen.
    @Test func theKeyTableAndTheHelpScreenFollowTheCommandTable() throws {
        var table = CommandWord.table.filter { $0.word != "trash" }
        table.append(CommandWord("now", .bare(.status), aliases: ["np"], summary: "tell what is playing", keys: ["w"]))
        let skip = table.firstIndex { $0.word == "skip" }!
        table[skip] = CommandWord("skip", .bare(.skip), needsSong: true, summary: "next, please", keys: ["N", "F3"])
        let rows = KeyBinding.table(commands: table)

        #expect(!rows.contains { $0.action == "trash" })
        let now = try #require(rows.first { $0.action == "now" })
        #expect(now == KeyBinding(action: "now", keys: [.character("w")], context: .global, effect: .command(.status),
                                  help: "tell what is playing"))
        let quit = try #require(rows.firstIndex { $0.action == "quit" })
        #expect(rows[(quit + 1)...(quit + 3)].map(\.action) == ["lyrics-earlier", "lyrics-later", "now"],
                "after the placed rows, in the table's order, before the channel list's")
        #expect(rows.first { $0.action == "skip" }?.keys == [.character("N"), .function(3)])

        let keymap = Keymap(bindings: rows)
        #expect(keymap.action(for: .character("w"), in: Self.main) == .command(.status))
        #expect(keymap.action(for: .character("b"), in: Self.main) == nil)
        let help = HelpView.render(keymap, width: 100, height: 40)
        #expect(help.contains(DisplayWidth.pad("  w        now               tell what is playing", to: 100)))
        #expect(help.contains(DisplayWidth.pad("  N F3     skip              next, please", to: 100)))
        #expect(!help.contains { $0.contains("trash") })
    }
}
