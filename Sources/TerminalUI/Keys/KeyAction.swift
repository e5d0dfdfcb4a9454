import Radio

/// What a key binding does. Most actions are radio commands; some need the current state
/// to become one (like ↔ unlike, volume ± a step, the selected download); the rest act
/// on the UI itself (open a screen, move a selection) and are no command at all, so
/// their names in the key table are never command words.
public enum KeyAction: Sendable, Equatable {
    /// Send this command as is.
    case command(RadioCommand)
    /// Send `.like`, or `.unlike` when the current song is already liked.
    case toggleLike
    /// Change the volume by this many points (clamped to 0–100) and send `.volume`.
    case volumeStep(Int)
    /// Turn the station's variety dial by this much (see ``VarietyDial``): no command, the
    /// next playlist request carries it.
    case varietyStep(Double)
    /// Open the channel list.
    case openChannels
    /// Open the downloads view.
    case openDownloads
    /// Open the lyrics view.
    case openLyrics
    /// Downloads view: pause the selected download, or resume it when paused.
    case pauseDownload
    /// Downloads view: cancel the selected download.
    case cancelDownload
    /// Downloads view: retry the selected download.
    case retryDownload
    /// Open the history view.
    case openHistory
    /// History view: like the selected song, or unlike it when liked.
    case likePast
    /// History view: trash the selected song.
    case trashPast
    /// History view: download the selected song.
    case downloadPast
    /// Open the login dialog (the `login` command word, done interactively).
    case openLogin
    /// Show the help screen.
    case help
    /// Send `.quit` and leave the UI.
    case quit
    /// Channel list: move the selection by this many rows (negative: up).
    case moveSelection(Int)
    /// Channel list: switch to the selected channel.
    case choose
    /// Channel list: listen to the selected channel's live broadcast (`live <id>`).
    case chooseLive
    /// Channel list: clear the filter, or close the list when there is none.
    case close
    /// Channel list: start typing a filter, so that letters bound in the list (j, k, q,
    /// c) can begin it.
    case startFilter

    /// The action of a key bound to `command`: the command itself, except that `login`
    /// opens the login dialog (the UI's way of logging in) and `quit` leaves the UI.
    public init(_ command: RadioCommand) {
        switch command {
        case .login: self = .openLogin
        case .quit: self = .quit
        default: self = .command(command)
        }
    }

    /// The action of a word's default key (``CommandWord/keys``): a step moves seek's
    /// position or the volume from where it is; `like` toggles, since the screen shows
    /// whether the song is liked; any other key sends the word's command as
    /// ``init(_:)`` does.
    public init(_ word: CommandWord, key: DefaultKey) {
        switch (word.form, key.step) {
        case (.seekTarget, let step?): self = .command(.seek(.relative(Double(step))))
        case (.percent, let step?): self = .volumeStep(step)
        case (.bare(.like), nil): self = .toggleLike
        case (.liveTarget, nil): self = .command(.live)
        case (.bare(let command), nil): self = KeyAction(command)
        default: preconditionFailure("\(word.word): the key \(key.name) has no action")
        }
    }

    /// Whether the action means anything on a live channel: not a radio-only command
    /// (``RadioCommand/isRadioOnly``), nor the login dialog, the variety dial (the radio's
    /// next lists) or the views of the radio's downloads, history and lyrics.
    public var appliesToLive: Bool {
        switch self {
        case .command(let command): !command.isRadioOnly
        case .openLogin, .varietyStep, .openDownloads, .openHistory, .openLyrics: false
        case .toggleLike, .volumeStep, .openChannels, .pauseDownload, .cancelDownload, .retryDownload, .likePast, .trashPast,
             .downloadPast, .help, .quit, .moveSelection, .choose, .chooseLive, .close, .startFilter:
            true
        }
    }

    /// The command this action sends given what is on screen, or nil when it is handled
    /// by the UI alone. `snapshot` decides the direction of `.toggleLike` and the base of
    /// `.volumeStep`.
    public func command(for snapshot: RadioSnapshot) -> RadioCommand? {
        switch self {
        case .command(let command):
            return command
        case .toggleLike:
            return snapshot.track?.liked == true ? .unlike : .like
        case .volumeStep(let step):
            return .volume(min(100, max(0, snapshot.volume + step)))
        case .quit:
            return .quit
        case .openChannels, .openLogin, .help, .moveSelection, .choose, .chooseLive, .close, .startFilter, .openDownloads, .openLyrics,
             .pauseDownload, .cancelDownload, .retryDownload, .varietyStep, .openHistory, .likePast, .trashPast,
             .downloadPast:
            return nil
        }
    }
}
