import RadioAPI

/// Where a live channel's listening is (``LiveSession``): one value, not a set of flags.
enum LiveState: Sendable, Equatable {
    /// Nothing plays: not started yet, or waiting to tune in again after a failure.
    case idle
    /// The player is opening the stream from `base`; no audio yet.
    case tuning(LiveTuning)
    /// Audio is heard: `moment` (ms since the epoch) is on the air's clock, `song` the
    /// aired song it belongs to once the programme says.
    case playing(LiveTuning, moment: Int64, song: AiredSong?)
    /// `quit` was handled.
    case quit

    /// The stream in the player, if any.
    var tuning: LiveTuning? {
        switch self {
        case .tuning(let tuning), .playing(let tuning, _, _): tuning
        case .idle, .quit: nil
        }
    }
}

/// One load of a live stream: the player's item and the air time its first segment started.
struct LiveTuning: Sendable, Equatable {
    /// The player's item.
    var item: AudioPlayerItemID
    /// When the first segment the item plays started on the air, in ms since the epoch:
    /// its position 0.
    var base: Int64
}
