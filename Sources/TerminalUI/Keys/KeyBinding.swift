import Radio

/// Where a binding applies. The now-playing screen answers `global` and `song` keys
/// (the two share one keyboard, so their keys must not collide); each view over it (the
/// channel list, the downloads, the lyrics and the history) answers only its own.
public enum KeyContext: String, Sendable, CaseIterable {
    /// Always available on the now-playing screen.
    case global
    /// Needs a song: refused with "nothing playing" while there is none.
    case song
    /// Inside the channel list.
    case channelList = "channel list"
    /// Inside the downloads view.
    case downloads
    /// Inside the lyrics view.
    case lyrics
    /// Inside the history view.
    case history

    /// Whether keys of the two contexts are read on the same screen, so that binding one
    /// key in both would be ambiguous.
    public func sharesKeys(with other: KeyContext) -> Bool {
        screen == other.screen
    }

    /// The screen that reads the context's keys: now-playing (global and song keys), the
    /// channel list, the downloads view, the lyrics view, the history view.
    private var screen: Int {
        switch self {
        case .global, .song: 0
        case .channelList: 1
        case .downloads: 2
        case .lyrics: 3
        case .history: 4
        }
    }
}

/// One row of the key table: the stable action name (used by `config.toml [keys]`), its
/// keys, where it applies, what it does, and the help text shown for it. The rows of
/// command words are made from ``CommandWord/table`` (``defaults``); the UI's own actions
/// have names of their own that are no command word. Hints and help are generated from
/// these rows, so a key can never do one thing and be documented as another.
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
    /// Names the row had before, still accepted in `[keys]` so that config files written
    /// with them keep working: `downloads` was the downloads view's, and is also the
    /// command word that controls one download, so the view is now `downloads-view`.
    public var formerNames: [String]

    /// Creates a row.
    public init(action: String, keys: [Key], context: KeyContext, effect: KeyAction,
                help: String, hintRank: Int? = nil, formerNames: [String] = []) {
        self.action = action
        self.keys = keys
        self.context = context
        self.effect = effect
        self.help = help
        self.hintRank = hintRank
        self.formerNames = formerNames
    }

    /// Where a row of the now-playing screen that stands for `word` goes: among the song
    /// keys when the command needs a song.
    static func context(of word: CommandWord) -> KeyContext {
        word.needsSong ? .song : .global
    }

    /// A row from a `[keys]` entry that binds a key to a command line: named by the line
    /// (`channel -3`), on the now-playing screen (among the song keys when the command
    /// needs a song).
    public init(command: RadioCommand, keys: [Key]) {
        self.init(action: command.line, keys: keys, context: Self.context(of: command.commandWord),
                  effect: KeyAction(command), help: "send “\(command.line)”")
        isCommandBinding = true
    }

    /// Whether the row binds a command line from `[keys]` rather than being one of the
    /// table's actions.
    public private(set) var isCommandBinding = false

    /// Whether `[keys]` may name the row `name`: its action, or a former name.
    func isNamed(_ name: String) -> Bool {
        !isCommandBinding && (action == name || formerNames.contains(name))
    }
}
