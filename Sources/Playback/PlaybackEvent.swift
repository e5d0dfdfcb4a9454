/// Everything the player reports, in the order mpv reported it: the vocabulary of
/// `PlayerController.events`. (mpv's own events, `MPVEvent`, stay inside this layer; the
/// radio's view of a player is another vocabulary again, declared by the radio.)
///
/// Promises, per item id returned by `load`, `queueNext` or `advance`:
/// - at most one `started`, then `progress`, `duration`, `metadata`, `buffering` and the
///   recovery events, then exactly one `finished`. This also holds for an item that was
///   replaced, dequeued or stopped before mpv began it, and for whatever plays at shutdown;
/// - a recovery (`recovering` … `recovered`) keeps the item's id: the reload is not a new item;
/// - `shutdown` is the last event.
public enum PlaybackEvent: Sendable, Equatable {
    /// The item is playing: the first `PLAYBACK_RESTART` after its `FILE_LOADED`. The
    /// duration is what mpv knew then (nil for live streams or when still unknown).
    case started(PlaybackItemID, duration: Double?)
    /// The `time-pos` of the started item, sent only when it changed, at most about four
    /// times a second while playing, and at once after a seek lands.
    case progress(PlaybackItemID, position: Double)
    /// mpv learned or changed the duration of the started item.
    case duration(PlaybackItemID, Double)
    /// The started item's tags changed (ID3/Vorbis tags when it opens; ICY stream titles of
    /// internet radio whenever the station sends a new one).
    case metadata(PlaybackItemID, StreamMetadata)
    /// true: playback of the started item waits for data (mpv's `paused-for-cache`); false:
    /// it plays again. A stall that lasts `RecoveryPolicy.stallTimeout` becomes a recovery.
    case buffering(PlaybackItemID, Bool)
    /// The item's stream broke (the connection dropped and ffmpeg's own reconnects failed, or
    /// it stalled too long); the player reloads it at `position` after a backoff. `attempt`
    /// counts from 1 and never exceeds `RecoveryPolicy.maxAttempts`.
    case recovering(PlaybackItemID, attempt: Int, position: Double)
    /// The reload plays again from `position`; progress goes on under the same id.
    case recovered(PlaybackItemID, position: Double)
    /// Every attempt failed; `finished(id, .connectionLost)` follows at once.
    case gaveUp(PlaybackItemID, attempts: Int, position: Double)
    /// The player paused (by `pause()` or by mpv itself).
    case paused
    /// The player resumed.
    case resumed
    /// The volume changed, in percent.
    case volume(Int)
    /// Mute was switched on (true) or off.
    case muted(Bool)
    /// mpv could not open the video output (video mode only); playback goes on without
    /// picture. The text is mpv's log line.
    case videoOutputFailed(String)
    /// The item ended.
    case finished(PlaybackItemID, FinishReason)
    /// The mpv handle is gone; the stream finishes after this.
    case shutdown

    /// The item this event is about, if any.
    public var item: PlaybackItemID? {
        switch self {
        case .started(let id, _), .progress(let id, _), .duration(let id, _), .metadata(let id, _),
             .buffering(let id, _), .recovering(let id, _, _), .recovered(let id, _), .gaveUp(let id, _, _),
             .finished(let id, _):
            id
        case .paused, .resumed, .volume, .muted, .videoOutputFailed, .shutdown: nil
        }
    }
}
