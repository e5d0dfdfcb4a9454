/// One word of the command vocabulary: a row of ``CommandWord/table``, the one table of
/// commands. Headless stdin, the control socket (`mhz ctl`) and `[keys]` command lines
/// parse by it; the terminal UI's key table takes each word's default keys and their help
/// from it; the help screen, `mhz ctl --help`, error texts and the manual's KEYS section
/// (its keys and its list of commands) show it. MPRIS's calls become the ``RadioCommand``
/// values its rows stand for. Writing a command back as a line, usage, examples and
/// whether a command needs a song are all taken from these rows.
public struct CommandWord: Sendable, Equatable {
    /// The word, as ``RadioCommand/line`` writes it.
    public let word: String
    /// Other spellings accepted for it (pianobar's and mpv's habits).
    public let aliases: [String]
    /// What the word stands for, and so what follows it on a line.
    public let form: Form
    /// Whether it acts on the song playing (the radio answers "nothing playing" without one).
    public let needsSong: Bool
    /// Whether only an interactive front end carries it out: the radio answers it as not
    /// available (the terminal UI's login key opens its login dialog instead, and `mhz
    /// login`/`mhz logout` do it from the shell), so `mhz ctl --help` leaves it out.
    public let interactiveOnly: Bool
    /// What the command does, in a few words (the manual's list of commands, and the help
    /// line of a default key that sends it as is).
    public let summary: String
    /// The keys the terminal UI binds to the word unless `[keys]` says otherwise, in the
    /// order the help screen lists them; empty for a word no key sends by default.
    public let keys: [DefaultKey]

    /// What a word stands for: one command, or a kind of command made from its argument.
    public enum Form: Sendable, Equatable {
        /// Nothing follows: the word is this command.
        case bare(RadioCommand)
        /// A channel id, as the station spells it (`-3`, `dj`): ``RadioCommand/channel(_:)``.
        case channelID
        /// `30` (seconds from the start) or `+10`/`-10` (relative): ``RadioCommand/seek(_:)``.
        case seekTarget
        /// An integer 0–100: ``RadioCommand/volume(_:)``.
        case percent
        /// `pause|resume|cancel|retry <id>`: ``RadioCommand/downloadControl(_:id:)``.
        case downloadAction
        /// Nothing, or how many songs (a positive integer): ``RadioCommand/history(limit:)``.
        case count
        /// `90s`, `30m`, `1h` (or seconds), or `off`: ``RadioCommand/sleep(_:)``.
        case duration
        /// `like|unlike|trash|download <sid>`: ``RadioCommand/pastSong(_:sid:)``.
        case pastSong
        /// Nothing (``RadioCommand/live``), or a channel id:
        /// ``RadioCommand/liveChannel(_:)``.
        case liveTarget
    }

    /// A row. `keys` are keys that send the word's command, named by the word and helped
    /// by `keyHelp` (else the summary); `steps` are keys of their own that move the
    /// word's argument.
    init(_ word: String, _ form: Form, aliases: [String] = [], needsSong: Bool = false, interactiveOnly: Bool = false,
         summary: String, keys: [String] = [], keyHelp: String? = nil, steps: [DefaultKey] = []) {
        self.word = word
        self.aliases = aliases
        self.form = form
        self.needsSong = needsSong
        self.interactiveOnly = interactiveOnly
        self.summary = summary
        self.keys = (keys.isEmpty ? [] : [DefaultKey(word, keys, help: keyHelp ?? summary)]) + steps
    }

    /// Every word, in the order lists of commands show them.
    public static let table: [CommandWord] = [
        CommandWord("pause", .bare(.pause), summary: "pause playback"),
        CommandWord("resume", .bare(.resume), aliases: ["play"], summary: "resume playback"),
        CommandWord("toggle", .bare(.toggle), summary: "pause or resume", keys: ["space"]),
        CommandWord("skip", .bare(.skip), aliases: ["next"], needsSong: true, summary: "skip to the next song",
                    keys: ["n"]),
        // The key toggles: the screen shows whether the song is liked.
        CommandWord("like", .bare(.like), needsSong: true, summary: "give the song a red heart (♥)",
                    keys: ["l"], keyHelp: "like the song, or unlike it if liked (♥)"),
        CommandWord("unlike", .bare(.unlike), needsSong: true, summary: "take the song's red heart away"),
        CommandWord("trash", .bare(.trash), aliases: ["ban"], needsSong: true, summary: "never play this song again",
                    keys: ["b"]),
        CommandWord("channel", .channelID, summary: "switch to the channel of this id"),
        CommandWord("seek", .seekTarget, needsSong: true,
                    summary: "go to this second of the song, or this many seconds on or back (+10, -10)",
                    steps: [DefaultKey("seek-forward", ["right"], step: 10, help: "forward 10 seconds"),
                            DefaultKey("seek-back", ["left"], step: -10, help: "back 10 seconds")]),
        CommandWord("live", .liveTarget,
                    summary: "go back to the live edge of the live channel heard (mhz --live); with an id, "
                        + "listen to that channel's live broadcast instead", keys: ["e"],
                    keyHelp: "on a live channel (mhz --live), go back to the live edge"),
        CommandWord("radio", .bare(.radio),
                    summary: "on a live channel entered from the radio (`live <id>`), go back to the radio, "
                        + "on the channel it played", keys: ["r"],
                    keyHelp: "on a live channel, back to the radio (the channel it played)"),
        CommandWord("volume", .percent, summary: "set the volume",
                    steps: [DefaultKey("volume-up", ["+", "="], step: 5, help: "volume up 5"),
                            DefaultKey("volume-down", ["-"], step: -5, help: "volume down 5")]),
        CommandWord("mute", .bare(.mute), summary: "turn the volume to 0, or back to where it was", keys: ["m"]),
        CommandWord("status", .bare(.status),
                    summary: "tell the state: the song and where it is, paused or not, the volume, the channel"),
        CommandWord("login", .bare(.login), interactiveOnly: true,
                    summary: "log in (or again, after the session expired)", keys: ["L"]),
        CommandWord("logout", .bare(.logout), interactiveOnly: true, summary: "forget the session"),
        CommandWord("download", .bare(.download), needsSong: true, summary: "download the song for offline listening",
                    keys: ["d"]),
        CommandWord("downloads", .downloadAction, summary: "pause, resume, cancel or retry the download of this id"),
        CommandWord("lyrics-earlier", .bare(.lyricsEarlier), needsSong: true,
                    summary: "show the song's lyric lines 0.5 s earlier (kept for the song)", keys: ["}"]),
        CommandWord("lyrics-later", .bare(.lyricsLater), needsSong: true,
                    summary: "show the song's lyric lines 0.5 s later (kept for the song)", keys: ["{"]),
        CommandWord("history", .count,
                    summary: "list the songs played, newest first (the last \(RadioCommand.defaultHistoryLimit), or this many)"),
        CommandWord("past", .pastSong,
                    summary: "like, unlike, trash or download a song of the history by its sid (`history` lists them)"),
        CommandWord("sleep", .duration, summary: sleepEffect + "; off cancels"),
        CommandWord("quit", .bare(.quit), aliases: ["exit"], summary: "quit, saving where you were", keys: ["q"]),
    ]

    /// The row of `form`: the word of a command that takes no argument, or of a kind of
    /// argument (`.percent` is `volume`). Every command has one; a test holds the table to it.
    public static func row(for form: Form) -> CommandWord {
        guard let row = table.first(where: { $0.form == form }) else {
            preconditionFailure("\(form) has no row in CommandWord.table")
        }
        return row
    }

    /// The row named by `text`, its word or an alias, ignoring case.
    public init?(parsing text: String) {
        self.init(parsing: text, in: Self.table)
    }

    /// The row of `table` named by `text`, its word or an alias, ignoring case.
    init?(parsing text: String, in table: [CommandWord]) {
        let lowered = text.lowercased()
        guard let row = table.first(where: { $0.word == lowered || $0.aliases.contains(lowered) }) else { return nil }
        self = row
    }

    /// How it is written, with its argument: `channel <id>`, `seek <±s|s>`, `volume <0-100>`.
    public var usage: String {
        switch form {
        case .bare: word
        case .channelID: "\(word) <id>"
        case .seekTarget: "\(word) <±s|s>"
        case .percent: "\(word) <0-100>"
        case .downloadAction: "\(word) <pause|resume|cancel|retry> <id>"
        case .count: "\(word) [n]"
        case .duration: "\(word) <\(Self.sleepForms.joined(separator: "|"))|off>"
        case .pastSong: "\(word) <like|unlike|trash|download> <sid>"
        case .liveTarget: "\(word) [id]"
        }
    }

    /// A complete example line.
    public var example: String {
        switch form {
        case .bare: word
        case .channelID: "\(word) 1"
        case .seekTarget: "\(word) 30 or \(word) +10"
        case .percent: "\(word) 60 (0–100)"
        case .downloadAction: "\(word) pause 3"
        case .count: "\(word) or \(word) 5"
        case .duration: "\(word) 30m or \(word) off"
        case .pastSong: "\(word) like 41"
        case .liveTarget: "\(word) or \(word) 1"
        }
    }

    /// The command of this word with `arguments`, the tokens after it on a line.
    func command(arguments: [String]) throws(CommandParseError) -> RadioCommand {
        switch form {
        case .bare(let command):
            if let extra = arguments.first { throw .unexpectedArgument(word: word, argument: extra) }
            return command
        case .channelID:
            return .channel(try only(arguments))
        case .seekTarget:
            let argument = try only(arguments)
            guard let value = Double(argument), value.isFinite else { throw .invalidArgument(word: word, argument: argument) }
            return argument.hasPrefix("+") || argument.hasPrefix("-") ? .seek(.relative(value)) : .seek(.absolute(value))
        case .percent:
            let argument = try only(arguments)
            guard let value = Int(argument), (0...100).contains(value) else {
                throw .invalidArgument(word: word, argument: argument)
            }
            return .volume(value)
        case .downloadAction:
            // The action is checked before the count, so `downloads stop` names `stop`.
            guard let first = arguments.first else { throw .missingArgument(word: word) }
            guard let action = DownloadAction(rawValue: first.lowercased()) else {
                throw .invalidArgument(word: word, argument: first)
            }
            guard arguments.count > 1 else { throw .missingArgument(word: word) }
            guard arguments.count == 2 else { throw .unexpectedArgument(word: word, argument: arguments[2]) }
            guard let id = Int64(arguments[1]), id > 0 else { throw .invalidArgument(word: word, argument: arguments[1]) }
            return .downloadControl(action, id: id)
        case .count:
            guard let first = arguments.first else { return .history(limit: nil) }
            let argument = try only(arguments)
            guard let value = Int(argument), value > 0 else { throw .invalidArgument(word: word, argument: first) }
            return .history(limit: value)
        case .duration:
            let argument = try only(arguments)
            if argument.lowercased() == "off" { return .sleep(nil) }
            guard let seconds = SleepTime.seconds(argument) else { throw .invalidArgument(word: word, argument: argument) }
            return .sleep(seconds)
        case .pastSong:
            guard let first = arguments.first else { throw .missingArgument(word: word) }
            guard let action = PastSongAction(rawValue: first.lowercased()) else {
                throw .invalidArgument(word: word, argument: first)
            }
            guard arguments.count > 1 else { throw .missingArgument(word: word) }
            guard arguments.count == 2 else { throw .unexpectedArgument(word: word, argument: arguments[2]) }
            return .pastSong(action, sid: arguments[1])
        case .liveTarget:
            guard !arguments.isEmpty else { return .live }
            return .liveChannel(try only(arguments))
        }
    }

    /// The one argument of a word that takes one.
    private func only(_ arguments: [String]) throws(CommandParseError) -> String {
        guard let first = arguments.first else { throw .missingArgument(word: word) }
        guard arguments.count == 1 else { throw .unexpectedArgument(word: word, argument: arguments[1]) }
        return first
    }
}

extension CommandWord {
    /// A sleep time in each form ``SleepTime/seconds(_:)`` reads, for every word that
    /// shows them: `sleep`'s usage and summary, `mhz --sleep`'s help and its refusal.
    static let sleepForms = ["90s", "30m", "1h"]

    /// The times a sleep timer takes, in words: the forms and the limit, ``SleepTime/longest``,
    /// in the largest unit they take (`90s, 30m or 1h, at most 8760h`).
    public static let sleepTimes = sleepForms.dropLast().joined(separator: ", ") + " or " + (sleepForms.last ?? "")
        + ", at most " + SleepTime.text(SleepTime.longest)

    /// What a sleep timer does, for `sleep`'s summary and `mhz --sleep`'s help.
    public static let sleepEffect = "fade out and quit after this long (\(sleepTimes)), saving where you were"
}
