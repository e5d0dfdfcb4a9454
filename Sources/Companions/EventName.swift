import Radio

/// The names of the JSON event lines, each written once: a line's `event` field and the
/// event hook's argument. Headless stdout, the control socket's followers, the hook,
/// `mhz download --json` and the desktop guide's list of events all take them from here.
public enum EventName: String, CaseIterable, Sendable {
    /// The channel tuned to (`id`, `name`).
    case channel
    /// A song began (the radio's, or a broadcast's song heard, marked `live`).
    case playing
    /// Playback paused.
    case paused
    /// Playback resumed.
    case resumed
    /// A song played to its end.
    case ended
    /// A song was skipped.
    case skipped
    /// A song was liked.
    case liked
    /// A song's like was taken back.
    case unliked
    /// A song was trashed.
    case trashed
    /// A vote on a live channel's song, as the station counted it.
    case voted
    /// The player lost the stream and tries again.
    case reconnecting
    /// The player has the stream again.
    case reconnected
    /// The radio hands over to a live channel.
    case goingLive = "going_live"
    /// A live channel hands back to the radio.
    case goingRadio = "going_radio"
    /// Where songs come from changed (the station, downloads, a fallback).
    case source
    /// The state of things, asked for (`status`).
    case status
    /// Something failed.
    case error
    /// The sleep timer was set or turned off.
    case sleep
    /// The sleep timer's fade lowered the volume.
    case fading
    /// The history, asked for (`history`).
    case history
    /// A lyric line became current.
    case lyric
    /// A download moved on.
    case download

    /// The name of a radio event's line.
    public init(_ event: RadioEvent) {
        switch event {
        case .playing, .livePlaying: self = .playing
        case .voted: self = .voted
        case .paused: self = .paused
        case .resumed: self = .resumed
        case .ended: self = .ended
        case .skipped: self = .skipped
        case .liked: self = .liked
        case .unliked: self = .unliked
        case .trashed: self = .trashed
        case .reconnecting: self = .reconnecting
        case .reconnected: self = .reconnected
        case .channel: self = .channel
        case .goingLive: self = .goingLive
        case .goingRadio: self = .goingRadio
        case .status: self = .status
        case .source: self = .source
        case .error: self = .error
        case .sleep: self = .sleep
        case .fading: self = .fading
        case .history: self = .history
        }
    }

    /// Whether the line answers one asker (`status`, `history`) rather than telling of
    /// something that happened: the hook does not run for it.
    public var answersAsker: Bool { self == .status || self == .history }
}
