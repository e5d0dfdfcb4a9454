import Radio

/// Where a binding applies. The now-playing screen answers `global` and `song` keys
/// (the two share one keyboard, so their keys must not collide); the channel list
/// answers only its own.
public enum KeyContext: String, Sendable, CaseIterable {
    /// Always available on the now-playing screen.
    case global
    /// Needs a song: refused with "nothing playing" while there is none.
    case song
    /// Inside the channel list.
    case channelList = "channel list"
    /// Inside the downloads view.
    case downloads

    /// Whether keys of the two contexts are read on the same screen, so that binding one
    /// key in both would be ambiguous.
    public func sharesKeys(with other: KeyContext) -> Bool {
        screen == other.screen
    }

    /// The screen that reads the context's keys: now-playing (global and song keys), the
    /// channel list, the downloads view.
    private var screen: Int {
        switch self {
        case .global, .song: 0
        case .channelList: 1
        case .downloads: 2
        }
    }
}

/// One row of the key table: the stable action name (used by `config.toml [keys]` and,
/// where one exists, equal to the command word), its keys, where it applies, what it
/// does, and the help text shown for it. Hints and help are generated from these rows,
/// so a key can never do one thing and be documented as another.
public struct KeyBinding: Sendable, Equatable {
    /// Stable name: overrides refer to it (`skip = "n"`).
    public var action: String
    /// Keys that trigger it; empty when the user unbound it.
    public var keys: [Key]
    /// Where it applies.
    public var context: KeyContext
    /// What it does.
    public var effect: KeyAction
    /// One-line description for the help screen.
    public var help: String
    /// Importance in the one-line hint under the now-playing screen (0 first), or nil to
    /// leave it to the help screen. When the line is too narrow, higher numbers go first.
    public var hintRank: Int?

    /// Creates a row.
    public init(action: String, keys: [Key], context: KeyContext, effect: KeyAction,
                help: String, hintRank: Int? = nil) {
        self.action = action
        self.keys = keys
        self.context = context
        self.effect = effect
        self.help = help
        self.hintRank = hintRank
    }

    /// A row from a `[keys]` entry that binds a key to a command line: named by the line
    /// (`channel -3`), on the now-playing screen (among the song keys when the command
    /// needs a song).
    public init(command: RadioCommand, keys: [Key]) {
        self.init(action: command.line, keys: keys, context: command.commandWord.needsSong ? .song : .global,
                  effect: KeyAction(command), help: "send “\(command.line)”")
        isCommandBinding = true
    }

    /// Whether the row binds a command line from `[keys]` rather than being one of the
    /// table's actions.
    public private(set) var isCommandBinding = false

    /// Seconds one press of the seek keys moves.
    public static let seekStep = 10.0
    /// Volume points one press of the volume keys moves.
    public static let volumeStep = 5
    /// How far one press of the variety keys turns the dial.
    public static let varietyStep = 0.1

    /// The default table, in the order the help screen lists it.
    public static let defaults: [KeyBinding] = [
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
        KeyBinding(action: "downloads", keys: [.character("D")], context: .global,
                   effect: .openDownloads, help: "show the downloads (pause, cancel, retry)"),
        KeyBinding(action: "channels", keys: [.character("c")], context: .global,
                   effect: .openChannels, help: "choose another channel", hintRank: 5),
        KeyBinding(action: "login", keys: [.character("L")], context: .global,
                   effect: .openLogin, help: "log in (or again, after the session expired)"),
        KeyBinding(action: "volume-up", keys: [.character("+"), .character("=")], context: .global,
                   effect: .volumeStep(volumeStep), help: "volume up \(volumeStep)"),
        KeyBinding(action: "volume-down", keys: [.character("-")], context: .global,
                   effect: .volumeStep(-volumeStep), help: "volume down \(volumeStep)"),
        KeyBinding(action: "variety-up", keys: [.character("]")], context: .global,
                   effect: .varietyStep(varietyStep), help: "more new songs in the next lists (variety +0.1)"),
        KeyBinding(action: "variety-down", keys: [.character("[")], context: .global,
                   effect: .varietyStep(-varietyStep), help: "more of what you love in the next lists (variety −0.1)"),
        KeyBinding(action: "seek-forward", keys: [.right], context: .song,
                   effect: .command(.seek(.relative(seekStep))), help: "forward \(Int(seekStep)) seconds"),
        KeyBinding(action: "seek-back", keys: [.left], context: .song,
                   effect: .command(.seek(.relative(-seekStep))), help: "back \(Int(seekStep)) seconds"),
        KeyBinding(action: "help", keys: [.character("?"), .character("h")], context: .global,
                   effect: .help, help: "show this help", hintRank: 0),
        KeyBinding(action: "quit", keys: [.character("q")], context: .global,
                   effect: .quit, help: "quit, saving where you were", hintRank: 1),
        KeyBinding(action: "list-up", keys: [.up, .character("k")], context: .channelList,
                   effect: .moveSelection(-1), help: "move up", hintRank: 2),
        KeyBinding(action: "list-down", keys: [.down, .character("j")], context: .channelList,
                   effect: .moveSelection(1), help: "move down", hintRank: 3),
        KeyBinding(action: "list-page-up", keys: [.pageUp], context: .channelList,
                   effect: .moveSelection(-10), help: "move up ten rows"),
        KeyBinding(action: "list-page-down", keys: [.pageDown], context: .channelList,
                   effect: .moveSelection(10), help: "move down ten rows"),
        KeyBinding(action: "list-choose", keys: [.enter], context: .channelList,
                   effect: .choose, help: "play the selected channel", hintRank: 0),
        KeyBinding(action: "list-close", keys: [.escape, .character("q"), .character("c")],
                   context: .channelList, effect: .close,
                   help: "clear the filter, or close the list", hintRank: 1),
        KeyBinding(action: "list-filter", keys: [.character("/")], context: .channelList,
                   effect: .startFilter, help: "type a filter even if it starts with j, k, q or c"),
        KeyBinding(action: "downloads-up", keys: [.up, .character("k")], context: .downloads,
                   effect: .moveSelection(-1), help: "move up"),
        KeyBinding(action: "downloads-down", keys: [.down, .character("j")], context: .downloads,
                   effect: .moveSelection(1), help: "move down"),
        KeyBinding(action: "downloads-pause", keys: [.character("p")], context: .downloads,
                   effect: .pauseDownload, help: "pause the selected download, or resume it", hintRank: 0),
        KeyBinding(action: "downloads-cancel", keys: [.character("x")], context: .downloads,
                   effect: .cancelDownload, help: "cancel the selected download (its partial file goes)", hintRank: 1),
        KeyBinding(action: "downloads-retry", keys: [.character("r")], context: .downloads,
                   effect: .retryDownload, help: "retry the selected download", hintRank: 2),
        KeyBinding(action: "downloads-close", keys: [.escape, .character("q"), .character("D")], context: .downloads,
                   effect: .close, help: "close the downloads", hintRank: 3),
    ]
}
