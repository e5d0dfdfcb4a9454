/// The command words of mhz, each with its aliases and its argument: the one table that
/// keystrokes, headless stdin, `[keys]` bindings and (later) the control socket read.
/// Parsing, the list of words, usage and examples are all derived from it.
public enum CommandWord: String, Sendable, CaseIterable {
    /// Pause playback.
    case pause
    /// Resume playback.
    case resume
    /// Pause when playing, resume when paused.
    case toggle
    /// Skip the current song.
    case skip
    /// Give the current song a red heart.
    case like
    /// Take the red heart away.
    case unlike
    /// Never play the current song again.
    case trash
    /// Switch channel.
    case channel
    /// Seek within the current song.
    case seek
    /// Set the volume.
    case volume
    /// Ask for a status event.
    case status
    /// Log in.
    case login
    /// Forget the session.
    case logout
    /// Download the current song.
    case download
    /// Pause, resume, cancel or retry a download by id.
    case downloads
    /// Stop cleanly.
    case quit

    /// What follows a word on a command line.
    public enum Argument: Sendable, Equatable {
        /// Nothing.
        case none
        /// A channel id, as the station spells it (`-3`, `dj`).
        case channelID
        /// `30` (seconds from the start) or `+10`/`-10` (relative).
        case seekTarget
        /// An integer 0–100.
        case percent
        /// `pause|resume|cancel|retry <id>`.
        case downloadAction
    }

    /// Other words accepted for it (pianobar's and mpv's habits).
    public var aliases: [String] {
        switch self {
        case .resume: ["play"]
        case .skip: ["next"]
        case .trash: ["ban"]
        case .quit: ["exit"]
        default: []
        }
    }

    /// What it takes after the word.
    public var argument: Argument {
        switch self {
        case .channel: .channelID
        case .seek: .seekTarget
        case .volume: .percent
        case .downloads: .downloadAction
        default: .none
        }
    }

    /// Whether it acts on the song playing (the radio answers "nothing playing" without one).
    public var needsSong: Bool {
        switch self {
        case .skip, .like, .unlike, .trash, .seek, .download: true
        default: false
        }
    }

    /// How it is written, with its argument: `channel <id>`, `seek <±s|s>`, `volume <0-100>`.
    public var usage: String {
        switch argument {
        case .none: rawValue
        case .channelID: "\(rawValue) <id>"
        case .seekTarget: "\(rawValue) <±s|s>"
        case .percent: "\(rawValue) <0-100>"
        case .downloadAction: "\(rawValue) <pause|resume|cancel|retry> <id>"
        }
    }

    /// A complete example line.
    public var example: String {
        switch argument {
        case .none: rawValue
        case .channelID: "\(rawValue) 1"
        case .seekTarget: "\(rawValue) 30 or \(rawValue) +10"
        case .percent: "\(rawValue) 60 (0–100)"
        case .downloadAction: "\(rawValue) pause 3"
        }
    }

    /// The word named by `text`, its own or an alias, ignoring case.
    public init?(parsing text: String) {
        let lowered = text.lowercased()
        guard let word = Self.allCases.first(where: { $0.rawValue == lowered || $0.aliases.contains(lowered) })
        else { return nil }
        self = word
    }
}
