/// The one command vocabulary of mhz: keystrokes, `[keys]` bindings, headless stdin and
/// (later) the control socket all speak it, so a word means the same thing everywhere.
/// Its words, aliases and arguments are the table ``CommandWord``.
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
    /// Download the current song.
    case download
    /// Pause, resume, cancel or retry download `id`.
    case downloadControl(DownloadAction, id: Int64)
    /// Stop cleanly, saving progress.
    case quit

    /// Where a seek goes.
    public enum Seek: Sendable, Equatable {
        /// To this many seconds from the start.
        case absolute(Double)
        /// By this many seconds from the current position (negative: back).
        case relative(Double)
    }

    /// Every command word, in the table's order.
    public static let words = CommandWord.allCases.map(\.rawValue)

    /// The command's word (its first token on a command line).
    public var word: String { commandWord.rawValue }

    /// The command's entry in the word table.
    public var commandWord: CommandWord {
        switch self {
        case .pause: .pause
        case .resume: .resume
        case .toggle: .toggle
        case .skip: .skip
        case .like: .like
        case .unlike: .unlike
        case .trash: .trash
        case .channel: .channel
        case .seek: .seek
        case .volume: .volume
        case .status: .status
        case .login: .login
        case .logout: .logout
        case .download: .download
        case .downloadControl: .downloads
        case .quit: .quit
        }
    }

    /// The command as a line that ``parse(_:)`` reads back into it: `channel -3`,
    /// `seek +10`, `volume 90`.
    public var line: String {
        switch self {
        case .channel(let id): "channel \(id)"
        case .seek(.absolute(let seconds)): "seek \(Self.number(seconds))"
        case .seek(.relative(let seconds)): "seek \(seconds < 0 ? "-" : "+")\(Self.number(abs(seconds)))"
        case .volume(let percent): "volume \(percent)"
        case .downloadControl(let action, let id): "downloads \(action.rawValue) \(id)"
        default: word
        }
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Parses one command line: a word (or an alias) of ``CommandWord`` and the argument it
    /// takes. Surrounding whitespace is ignored; words are case-insensitive.
    ///
    /// `seek 30` is absolute, `seek +10` / `seek -10` relative.
    public static func parse(_ line: String) throws(CommandParseError) -> RadioCommand {
        // Split on scalars, not Characters: a joiner or combining mark after a space makes one
        // Character with it, so `channel \t\u{200D}` would read as `.channel("\u{200D}")`
        // while its `line`, `channel \u{200D}`, would not split at all.
        let tokens = line.unicodeScalars.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { String(Substring($0)) }
        guard let first = tokens.first else { throw .empty }
        guard let word = CommandWord(parsing: first) else { throw .unknownWord(first) }
        let name = word.rawValue
        let args = Array(tokens.dropFirst())
        if let command = bare(word) {
            if let extra = args.first { throw .unexpectedArgument(word: name, argument: extra) }
            return command
        }
        guard let arg = args.first else { throw .missingArgument(word: name) }
        if word.argument == .downloadAction {
            guard let action = DownloadAction(rawValue: arg.lowercased()) else { throw .invalidArgument(word: name, argument: arg) }
            guard args.count > 1 else { throw .missingArgument(word: name) }
            guard args.count == 2 else { throw .unexpectedArgument(word: name, argument: args[2]) }
            guard let id = Int64(args[1]), id > 0 else { throw .invalidArgument(word: name, argument: args[1]) }
            return .downloadControl(action, id: id)
        }
        guard args.count == 1 else { throw .unexpectedArgument(word: name, argument: args[1]) }
        switch word.argument {
        case .channelID:
            return .channel(arg)
        case .seekTarget:
            guard let value = Double(arg), value.isFinite else { throw .invalidArgument(word: name, argument: arg) }
            return arg.hasPrefix("+") || arg.hasPrefix("-") ? .seek(.relative(value)) : .seek(.absolute(value))
        case .percent:
            guard let value = Int(arg), (0...100).contains(value) else {
                throw .invalidArgument(word: name, argument: arg)
            }
            return .volume(value)
        case .none, .downloadAction:
            throw .unexpectedArgument(word: name, argument: arg)
        }
    }

    /// The command of a word that takes no argument; nil for the words that take one.
    private static func bare(_ word: CommandWord) -> RadioCommand? {
        switch word {
        case .pause: .pause
        case .resume: .resume
        case .toggle: .toggle
        case .skip: .skip
        case .like: .like
        case .unlike: .unlike
        case .trash: .trash
        case .status: .status
        case .login: .login
        case .logout: .logout
        case .download: .download
        case .quit: .quit
        case .channel, .seek, .volume, .downloads: nil
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
