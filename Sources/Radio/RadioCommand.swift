/// The one command vocabulary of mhz (DESIGN.md): keystrokes, headless stdin and (later)
/// the control socket all speak it, so a word means the same thing everywhere.
public enum RadioCommand: Sendable, Equatable {
    /// Pause playback.
    case pause
    /// Resume playback.
    case resume
    /// Pause when playing, resume when paused.
    case toggle
    /// Skip the current song (report `s`); the next queued song starts at once.
    case skip
    /// Give the current song a red heart (report `r`).
    case like
    /// Take the red heart away (report `u`).
    case unlike
    /// Never play the current song again (report `b`); the next queued song starts at once.
    case trash
    /// Switch to the channel with this id (report `n` on the new channel).
    case channel(String)
    /// Seek within the current song.
    case seek(Seek)
    /// Set the volume, 0–100.
    case volume(Int)
    /// Ask for a status event.
    case status
    /// Log in (interactive front ends only).
    case login
    /// Forget the session.
    case logout
    /// Stop cleanly, saving progress.
    case quit

    /// Where a seek goes.
    public enum Seek: Sendable, Equatable {
        /// To this many seconds from the start.
        case absolute(Double)
        /// By this many seconds from the current position (negative: back).
        case relative(Double)
    }

    /// Every command word, in the order of DESIGN.md.
    public static let words = ["pause", "resume", "toggle", "skip", "like", "unlike", "trash", "channel",
                               "seek", "volume", "status", "login", "logout", "quit"]

    /// The command's word (its first token on a command line).
    public var word: String {
        switch self {
        case .pause: "pause"
        case .resume: "resume"
        case .toggle: "toggle"
        case .skip: "skip"
        case .like: "like"
        case .unlike: "unlike"
        case .trash: "trash"
        case .channel: "channel"
        case .seek: "seek"
        case .volume: "volume"
        case .status: "status"
        case .login: "login"
        case .logout: "logout"
        case .quit: "quit"
        }
    }

    /// Parses one command line: a word and, for `channel`, `seek` and `volume`, one
    /// argument. Surrounding whitespace is ignored; words are case-insensitive.
    ///
    /// `seek 30` is absolute, `seek +10` / `seek -10` relative.
    public static func parse(_ line: String) throws(CommandParseError) -> RadioCommand {
        let tokens = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let first = tokens.first else { throw .empty }
        let word = first.lowercased()
        let args = Array(tokens.dropFirst())
        func noArguments(_ command: RadioCommand) throws(CommandParseError) -> RadioCommand {
            guard args.isEmpty else { throw .unexpectedArgument(word: word, argument: args[0]) }
            return command
        }
        func oneArgument() throws(CommandParseError) -> String {
            guard let arg = args.first else { throw .missingArgument(word: word) }
            guard args.count == 1 else { throw .unexpectedArgument(word: word, argument: args[1]) }
            return arg
        }
        switch word {
        case "pause": return try noArguments(.pause)
        case "resume", "play": return try noArguments(.resume)
        case "toggle": return try noArguments(.toggle)
        case "skip", "next": return try noArguments(.skip)
        case "like": return try noArguments(.like)
        case "unlike": return try noArguments(.unlike)
        case "trash", "ban": return try noArguments(.trash)
        case "status": return try noArguments(.status)
        case "login": return try noArguments(.login)
        case "logout": return try noArguments(.logout)
        case "quit", "exit": return try noArguments(.quit)
        case "channel":
            let id = try oneArgument()
            return .channel(id)
        case "seek":
            let arg = try oneArgument()
            guard let value = Double(arg), value.isFinite else { throw .invalidArgument(word: word, argument: arg) }
            if arg.hasPrefix("+") || arg.hasPrefix("-") { return .seek(.relative(value)) }
            return .seek(.absolute(value))
        case "volume":
            let arg = try oneArgument()
            guard let value = Int(arg), (0...100).contains(value) else {
                throw .invalidArgument(word: word, argument: arg)
            }
            return .volume(value)
        default:
            throw .unknownWord(first)
        }
    }
}

/// Why a command line was not understood.
public enum CommandParseError: Error, Sendable, Equatable {
    /// The line was blank.
    case empty
    /// The first word is not in the vocabulary.
    case unknownWord(String)
    /// The command needs an argument that is missing.
    case missingArgument(word: String)
    /// The command takes fewer arguments than given.
    case unexpectedArgument(word: String, argument: String)
    /// The argument is out of range or not a number.
    case invalidArgument(word: String, argument: String)
}
