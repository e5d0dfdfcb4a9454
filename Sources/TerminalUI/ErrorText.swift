import Radio

/// The one place where errors become words. The status line of the terminal UI and the
/// headless CLI's `{"event":"error"}` both call `describe`, so the same failure reads the
/// same everywhere; a failure talking to the station is worded once, for every front end
/// and the command line (`ErrorText+Service`).
///
/// Every text is one line — what happened, a dash, what to do — with any text carried
/// by the error (a transport message, mpv's words) flattened onto that line, because a
/// server or library message may contain line breaks. Advice names command words and
/// command-line options, not keys: keys can be remapped and the CLI has none. The one
/// exception is logging in, which the terminal UI does in a dialog: its caller passes the
/// key bound to `login` in the keymap in effect (so a remap is honoured), and the advice
/// names that key instead of `mhz login`.
public enum ErrorText {
    /// One line saying what went wrong and what to do about it. `loginKey` is the label of
    /// the terminal UI's login key; without one, logging in is advised as `mhz login`.
    public static func describe(_ error: RadioError, loginKey: String? = nil) -> String {
        switch error {
        case .service(let failure):
            return describe(failure, for: .radio(loginKey: loginKey))
        case .player(.loadFailed(let reason)):
            return "Could not play this song\(detail(reason)) — skip to the next one; "
                + "if every song fails, check the station's media files."
        case .player(.unavailable(let reason)):
            return "No audio output\(detail(reason)) — check that your sound system is running, "
                + "or pick one with --audio-output."
        case .player(.mediaUnavailable(let status)):
            return "The station refused this song's link (HTTP \(status)); it may have expired — "
                + "fetching a fresh list; nothing to do unless every song fails."
        case .player(.connectionLost):
            return "Lost the connection to this song's stream — check your network; "
                + "the song plays again once the station answers."
        case .emptyChannel(let channel) where channel.id == "-3":
            // The red-heart channel plays the listener's liked songs: empty until there are some.
            return "The red-heart channel has no liked songs yet — like songs on other channels first; "
                + "retrying meanwhile."
        case .emptyChannel(let channel) where channel.id == SongSource.offlineChannel.id:
            return "No downloaded songs yet — press d while a song plays, or run `mhz download`; "
                + "playing as soon as one is downloaded."
        case .emptyChannel(let channel):
            return "Channel \(quoted(channel.name)) has no songs right now — choose another channel; "
                + "retrying meanwhile."
        case .unknownChannel(let id):
            return "This station has no channel \(quoted(id)) — `mhz channels` lists the ids."
        case .notLive(let id):
            return "This station does not broadcast channel \(quoted(id)) live — the channel list marks "
                + "the ones it does (`mhz channels` says “(live)”)."
        case .liveRefused(let id, let failure):
            return "No live broadcast of channel \(quoted(id)): \(liveRefusal(failure)) — "
                + "what played before plays on; `mhz channels` marks the channels on the air."
        case .nothingPlaying:
            return "Nothing is playing yet — wait for a song to start, or choose a channel."
        case .notOnLive(let what, let returnsToRadio):
            return "\(quoted(what)) is the radio's and does not apply to a live channel — "
                + (returnsToRadio ? "`radio` goes back to the radio." : "quit and start mhz without --live for the radio.")
        case .alreadyRadio:
            return "The radio is playing already — `radio` goes back to it from a live channel (`live <id>`)."
        case .noRadio:
            return "This live channel was not entered from the radio, so there is none to go back to — "
                + "quit and start mhz without --live."
        case .unsupported(let what):
            return "\(quoted(what)) is not available here — see `mhz --help` for what this mode offers."
        case .storage(let reason):
            return "Could not save progress\(detail(reason)) — playback goes on; check free space and "
                + "permissions of the data directory (--data-dir)."
        case .diskFull:
            return "The disk is full: could not save progress or reports — playback goes on and mhz "
                + "saves again when there is room; free some space on the data directory's disk."
        case .databaseReplaced(let kept, let reason):
            return "The database was damaged\(detail(reason)): kept as \(kept) and started anew — "
                + "saved positions, unsent reports and the download list begin empty."
        case .unreadableReport(let type):
            return "Skipped a waiting report of unknown type \(quoted(type)) in the database — "
                + "it was not sent; nothing to do unless this repeats."
        case .notInHistory(let sid):
            return "Song \(quoted(sid)) is not among the songs this station played lately — "
                + "`mhz history` lists them with their sids."
        }
    }

    /// One line for a refused `[keys]` override (the config loader adds the file and
    /// line in front).
    public static func describe(_ error: KeymapError) -> String {
        switch error {
        case .unknownAction(let action):
            return "\(quoted(action)) in [keys] is neither an action nor a key — use an action ("
                + Keymap.actionNames.joined(separator: ", ") + ") = keys, or a key = a command line."
        case .invalidCommand(let key, let line, let error):
            return "\(quoted(line)) (bound to \(key)) is not a command: \(describe(error, for: .keys))."
        case .invalidKey(let action, let key):
            return "\(quoted(key)) is not a key (for \(quoted(action))) — use one character, "
                + "a name such as space, enter, esc, left, pgdn, F5, or ctrl+l; \"none\" unbinds."
        case .duplicateKey(let action, let key, let other):
            return "\(quoted(action)) and \(quoted(other)) are both bound to \(key) — "
                + "give one of them another key."
        case .formerName(let name, let current):
            return "\(quoted(name)) in [keys] is the former name of \(quoted(current)), which [keys] also binds — "
                + "keep only \(quoted(current))."
        }
    }

    // MARK: - Formatting carried text

    /// ` (reason)` for a non-empty reason, flattened to one line; nothing otherwise.
    static func detail(_ reason: String) -> String {
        let flat = oneLine(reason)
        return flat.isEmpty ? "" : " (\(flat))"
    }

    /// A name in curly quotes, flattened to one line.
    static func quoted(_ text: String) -> String {
        "“\(oneLine(text))”"
    }

    /// Collapses line breaks, tabs and runs of spaces into single spaces and drops other
    /// control characters, so a multi-line server message cannot break the status line.
    static func oneLine(_ text: String) -> String {
        DisplayWidth.sanitize(text)
            .split(separator: " ", omittingEmptySubsequences: true)
            .joined(separator: " ")
    }
}
