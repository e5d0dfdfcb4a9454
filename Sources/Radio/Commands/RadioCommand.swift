/// The one command vocabulary of mhz: keystrokes, `[keys]` bindings, headless stdin, the
/// control socket and MPRIS all speak it, so a word means the same thing everywhere.
/// Its words, aliases and arguments are the rows of ``CommandWord/table``.
public enum RadioCommand: Sendable, Equatable {
    /// How many songs `history` tells when it names no number.
    public static let defaultHistoryLimit = 20

    /// How many songs a `history` command with `limit` tells: the limit it gave, else
    /// ``defaultHistoryLimit``. (`mhz history`, which tells the whole history when given no
    /// count, does not come through here.)
    public static func historyCount(_ limit: Int?) -> Int { limit ?? defaultHistoryLimit }

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
    /// Turn the volume to 0, or back to where it was (``MuteSwitch``).
    case mute
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
    /// Show the song's lyric lines half a second earlier, kept for the song (mhz's lyric
    /// follower, not the machine, acts on it).
    case lyricsEarlier
    /// Show the song's lyric lines half a second later, kept for the song.
    case lyricsLater
    /// Tell the history: the songs started, newest first, at most `limit` (nil:
    /// ``defaultHistoryLimit``).
    case history(limit: Int?)
    /// Set the sleep timer to run out in this many seconds; nil turns it off.
    case sleep(Double?)
    /// Like, unlike, trash or download song `sid` of the history, without disturbing what
    /// plays (the song playing now is acted on as `like`, `trash`… would).
    case pastSong(PastSongAction, sid: String)
    /// On a live channel (`mhz --live`), go back to the live edge after looking back.
    case live
    /// Listen to this channel's live broadcast: the radio becomes `mhz --live <id>` (the
    /// composition root does it: a session listens to one thing).
    case liveChannel(String)
    /// On a live channel entered from the radio (`live <id>`), go back to the radio, on the
    /// channel it played (the composition root does it, as it did going live).
    case radio
    /// Stop cleanly, saving progress.
    case quit

    /// Where a seek goes.
    public enum Seek: Sendable, Equatable {
        /// To this many seconds from the start.
        case absolute(Double)
        /// By this many seconds from the current position (negative: back).
        case relative(Double)
    }

    /// Whether the command acts on the radio's own songs, lists or settings, and so has no
    /// meaning on a live channel, whose songs the broadcast chooses for every listener:
    /// downloads, lyrics, the history, logging in and out. (The sleep timer is not: it ends
    /// a live listening as it ends the radio.)
    public var isRadioOnly: Bool {
        switch self {
        case .download, .downloadControl, .lyricsEarlier, .lyricsLater, .history, .pastSong, .login, .logout:
            true
        case .pause, .resume, .toggle, .skip, .like, .unlike, .trash, .channel, .seek, .volume, .mute, .status, .live,
             .liveChannel, .radio, .sleep, .quit:
            false
        }
    }

    /// The command's word (its first token on a command line).
    public var word: String { commandWord.word }

    /// The command's row in ``CommandWord/table``: the row of its own word for a command
    /// that takes no argument, else the row of the argument's kind.
    public var commandWord: CommandWord {
        switch self {
        case .channel: CommandWord.row(for: .channelID)
        case .seek: CommandWord.row(for: .seekTarget)
        case .volume: CommandWord.row(for: .percent)
        case .downloadControl: CommandWord.row(for: .downloadAction)
        case .history: CommandWord.row(for: .count)
        case .sleep: CommandWord.row(for: .duration)
        case .pastSong: CommandWord.row(for: .pastSong)
        case .live, .liveChannel: CommandWord.row(for: .liveTarget)
        default: CommandWord.row(for: .bare(self))
        }
    }

    /// The command as a line that ``parse(_:)`` reads back into it: `channel -3`,
    /// `seek +10`, `volume 90`.
    public var line: String {
        switch self {
        case .channel(let id): "\(word) \(id)"
        case .seek(.absolute(let seconds)): "\(word) \(Self.number(seconds))"
        case .seek(.relative(let seconds)): "\(word) \(seconds < 0 ? "-" : "+")\(Self.number(abs(seconds)))"
        case .volume(let percent): "\(word) \(percent)"
        case .downloadControl(let action, let id): "\(word) \(action.rawValue) \(id)"
        case .history(let limit?): "\(word) \(limit)"
        case .sleep(let seconds): "\(word) \(seconds.map(SleepTime.text) ?? "off")"
        case .pastSong(let action, let sid): "\(word) \(action.rawValue) \(sid)"
        case .liveChannel(let id): "\(word) \(id)"
        default: word
        }
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Parses one command line: a word (or an alias) of ``CommandWord/table`` and the
    /// argument it takes. Surrounding whitespace is ignored; words are case-insensitive.
    ///
    /// `seek 30` is absolute, `seek +10` / `seek -10` relative.
    public static func parse(_ line: String) throws(CommandParseError) -> RadioCommand {
        try parse(line, in: CommandWord.table)
    }

    /// Parses one command line by the rows of `table` (``CommandWord/table`` but in tests).
    static func parse(_ line: String, in table: [CommandWord]) throws(CommandParseError) -> RadioCommand {
        // Split on scalars, not Characters: a joiner or combining mark after a space makes one
        // Character with it, so `channel \t\u{200D}` would read as `.channel("\u{200D}")`
        // while its `line`, `channel \u{200D}`, would not split at all.
        let tokens = line.unicodeScalars.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { String(Substring($0)) }
        guard let first = tokens.first else { throw .empty }
        guard let word = CommandWord(parsing: first, in: table) else { throw .unknownWord(first) }
        return try word.command(arguments: Array(tokens.dropFirst()))
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
    /// The line was longer than a reader of command lines takes (`limit` bytes), and was
    /// skipped to its end unread.
    case tooLong(limit: Int)
}
