import Radio

/// The default key table: the keys of command words, taken from ``CommandWord/table``
/// with their names and help, placed among the UI's own actions (the channel list, the
/// downloads, lyrics and history views, help) in the order the help screen lists them.
extension KeyBinding {
    /// The default table, in the order the help screen lists it.
    public static let defaults = table(commands: CommandWord.table)

    /// How far one press of the variety keys turns the dial.
    public static let varietyStep = 0.1

    /// Where a row of the now-playing screen goes: the default keys of a command word, or
    /// one of the UI's own rows.
    private enum Place {
        /// Every default key of the word, and the hint rank of the key named as the word.
        case word(String, hint: Int? = nil)
        /// A row of the UI's own.
        case own(KeyBinding)
    }

    /// The now-playing screen's rows, in the help screen's order. A word the table gives
    /// keys but this list does not place goes after them.
    private static let playingScreen: [Place] = [
        .word("toggle", hint: 2),
        .word("skip", hint: 3),
        .word("like", hint: 4),
        .word("trash", hint: 6),
        .word("download", hint: 7),
        // `downloads` is the command word that acts on one download; the view has a name
        // of its own, and its former name still binds it.
        .own(KeyBinding(action: "downloads-view", keys: [.character("D")], context: .global, effect: .openDownloads,
                        help: "show the downloads (pause, cancel, retry)", formerNames: ["downloads"])),
        .own(KeyBinding(action: "history-view", keys: [.character("H")], context: .global, effect: .openHistory,
                        help: "show the songs played, to act on one of them")),
        .own(KeyBinding(action: "channels", keys: [.character("c")], context: .global, effect: .openChannels,
                        help: "choose another channel", hintRank: 5)),
        .own(KeyBinding(action: "lyrics-view", keys: [.character("y")], context: .global, effect: .openLyrics,
                        help: "show the song's lyrics, the line being sung highlighted")),
        .word("login"),
        .word("volume"),
        .word("mute"),
        // The variety dial is the terminal's own: it changes what the next lists ask for
        // (`variety=`), not the radio's state, so it is no command word.
        .own(KeyBinding(action: "variety-up", keys: [.character("]")], context: .global,
                        effect: .varietyStep(varietyStep), help: "more new songs in the next lists (variety +0.1)")),
        .own(KeyBinding(action: "variety-down", keys: [.character("[")], context: .global,
                        effect: .varietyStep(-varietyStep),
                        help: "more of what you love in the next lists (variety −0.1)")),
        .word("seek"),
        .word("live"),
        .word("radio"),
        .own(KeyBinding(action: "help", keys: [.character("?"), .character("h")], context: .global, effect: .help,
                        help: "show this help", hintRank: 0)),
        .word("quit", hint: 1),
    ]

    /// The key table for the command words `commands`: their default keys, then the
    /// channel list's, the downloads view's, the lyrics view's and the history view's own rows.
    static func table(commands: [CommandWord]) -> [KeyBinding] {
        var rows: [KeyBinding] = []
        var placed: Set<String> = []
        for place in playingScreen {
            switch place {
            case .word(let name, let hint):
                guard let word = commands.first(where: { $0.word == name }) else { continue }
                placed.insert(name)
                rows += keyRows(of: word, hint: hint)
            case .own(let row):
                rows.append(row)
            }
        }
        for word in commands where !placed.contains(word.word) {
            rows += keyRows(of: word, hint: nil)
        }
        return rows + lists
    }

    /// The rows of a word's default keys, `hint` the rank of the one named as the word.
    private static func keyRows(of word: CommandWord, hint: Int?) -> [KeyBinding] {
        word.keys.map { key in
            let keys = key.keys.map { name in
                guard let parsed = Key.parse(name) else { preconditionFailure("\(word.word): “\(name)” is not a key") }
                return parsed
            }
            return KeyBinding(action: key.name, keys: keys, context: context(of: word), effect: KeyAction(word, key: key),
                              help: key.help, hintRank: key.name == word.word ? hint : nil)
        }
    }

    /// The rows of the list views: the channel list, the downloads, the lyrics and the history.
    private static let lists: [KeyBinding] = movement("list", in: .channelList, hints: (2, 3)) + [
        KeyBinding(action: "list-choose", keys: [.enter], context: .channelList,
                   effect: .choose, help: "play the selected channel", hintRank: 0),
        KeyBinding(action: "list-live", keys: [.character("L")], context: .channelList,
                   effect: .chooseLive, help: "listen to the selected channel's live broadcast (marked live)",
                   hintRank: 4),
        KeyBinding(action: "list-close", keys: [.escape, .character("q"), .character("c")],
                   context: .channelList, effect: .close,
                   help: "clear the filter, or close the list", hintRank: 1),
        KeyBinding(action: "list-filter", keys: [.character("/")], context: .channelList,
                   effect: .startFilter, help: "type a filter even if it starts with j, k, q or c"),
    ] + movement("downloads", in: .downloads, paging: false) + [
        KeyBinding(action: "downloads-pause", keys: [.character("p")], context: .downloads,
                   effect: .pauseDownload, help: "pause the selected download, or resume it", hintRank: 0),
        KeyBinding(action: "downloads-cancel", keys: [.character("x")], context: .downloads,
                   effect: .cancelDownload, help: "cancel the selected download (its partial file goes)", hintRank: 1),
        KeyBinding(action: "downloads-retry", keys: [.character("r")], context: .downloads,
                   effect: .retryDownload, help: "retry the selected download", hintRank: 2),
        KeyBinding(action: "downloads-close", keys: [.escape, .character("q"), .character("D")], context: .downloads,
                   effect: .close, help: "close the downloads", hintRank: 3),
    ] + movement("lyrics", in: .lyrics, scrolling: true, hints: (1, 2)) + [
        KeyBinding(action: "lyrics-close", keys: [.escape, .character("q"), .character("y")], context: .lyrics,
                   effect: .close, help: "close the lyrics", hintRank: 0),
    ] + movement("history", in: .history) + [
        KeyBinding(action: "history-like", keys: [.character("l")], context: .history,
                   effect: .likePast, help: "like the selected song, or unlike it if liked (♥)", hintRank: 0),
        KeyBinding(action: "history-trash", keys: [.character("b")], context: .history,
                   effect: .trashPast, help: "never play the selected song again", hintRank: 1),
        KeyBinding(action: "history-download", keys: [.character("d")], context: .history,
                   effect: .downloadPast, help: "download the selected song", hintRank: 2),
        KeyBinding(action: "history-close", keys: [.escape, .character("q"), .character("H")], context: .history,
                   effect: .close, help: "close the history", hintRank: 3),
    ]

    /// The movement keys of a list view, named `<prefix>-up`, `-down`, `-page-up` and
    /// `-page-down`: ↑ k and ↓ j move one row (or scroll one line, in a view without a
    /// selection), PgUp and PgDn ten. `hints` ranks the first two in the hint line.
    private static func movement(_ prefix: String, in context: KeyContext, scrolling: Bool = false,
                                 paging: Bool = true, hints: (up: Int?, down: Int?) = (nil, nil)) -> [KeyBinding] {
        let (verb, one, ten) = scrolling ? ("scroll", " a line", "ten lines") : ("move", "", "ten rows")
        let rows = [
            KeyBinding(action: prefix + "-up", keys: [.up, .character("k")], context: context,
                       effect: .moveSelection(-1), help: "\(verb) up\(one)", hintRank: hints.up),
            KeyBinding(action: prefix + "-down", keys: [.down, .character("j")], context: context,
                       effect: .moveSelection(1), help: "\(verb) down\(one)", hintRank: hints.down),
        ]
        guard paging else { return rows }
        return rows + [
            KeyBinding(action: prefix + "-page-up", keys: [.pageUp], context: context,
                       effect: .moveSelection(-pageRows), help: "\(verb) up \(ten)"),
            KeyBinding(action: prefix + "-page-down", keys: [.pageDown], context: context,
                       effect: .moveSelection(pageRows), help: "\(verb) down \(ten)"),
        ]
    }

    /// How many rows PgUp and PgDn move a list's selection (or scroll it) by.
    static let pageRows = 10
}
