/// Identifies one `PlayerController.load(_:startAt:)`: the mpv playlist entry id that the
/// load created. Events carry it so callers can tell the item they care about from the one
/// a new load replaced.
public struct PlaybackItemID: Hashable, Sendable, CustomStringConvertible {
    /// mpv's `playlist_entry_id`: positive, unique and increasing for the handle's lifetime.
    public let rawValue: Int64

    /// Wraps an mpv playlist entry id.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// `#<id>`, for logs.
    public var description: String { "#\(rawValue)" }
}

/// Why an item stopped playing.
public enum EndReason: Sendable, Equatable {
    /// It played to its end (mpv also reports this when a stream ends early).
    case eof
    /// It was stopped, replaced by another load, or the player shut down.
    case stopped
    /// It failed; the text is mpv's `mpv_error_string` for the error (e.g. "loading failed").
    case error(String)
}

/// What the player tells a consumer of `PlayerController.events`, in the order mpv reported
/// it: the older subset of `PlaybackUpdate` (see `PlaybackUpdate.legacyEvent`), kept so code
/// written against it compiles unchanged. New code should read `updates`.
///
/// Guarantees, per item id returned by `load`, `queueNext` or `advance`: at most one
/// `started`, then `progress` and `duration` events, then exactly one `finished` — also for
/// an item replaced or stopped before mpv began it, and for whatever plays at shutdown. A
/// recovery is invisible here apart from a pause in `progress`. `shutdown` is the last event.
public enum PlaybackEvent: Sendable, Equatable {
    /// The item is playing: the first `PLAYBACK_RESTART` after its `FILE_LOADED`. The
    /// duration is what mpv knew then (nil for live streams or when still unknown).
    case started(PlaybackItemID, duration: Double?)
    /// The observed `time-pos` of the started item, sent only when it changed, at most about
    /// four times a second, and at once after a seek lands.
    case progress(PlaybackItemID, position: Double)
    /// mpv learned or changed the duration of the started item.
    case duration(PlaybackItemID, Double)
    /// The player paused (by `pause()` or by mpv itself).
    case paused
    /// The player resumed.
    case resumed
    /// The volume changed, in percent.
    case volume(Int)
    /// The item ended.
    case finished(PlaybackItemID, EndReason)
    /// The mpv handle is gone; the stream finishes after this.
    case shutdown
}
