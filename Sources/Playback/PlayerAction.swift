/// An mpv command the event translator asks the event loop to run, because it follows from
/// an event rather than from a caller's command: reloading a broken item, halting mpv's
/// automatic advance while a reload waits, pruning entries that have ended.
enum PlayerAction: Sendable, Equatable {
    /// `stop`: mpv must not play on (into the queued item) while a recovery waits. The
    /// entries it ends were silenced by the translator first.
    case halt
    /// Reload `url` at `start` with `gain` (dB, nil: none) with `loadfile … replace` for item
    /// `item`, then, if the item had a next item queued, queue that again (`loadfile …
    /// append`); the loop reports the new entries back with `noteReloaded`.
    case reload(item: Int64, url: String, start: Double, gain: Double? = nil, requeue: QueuedURL?)
    /// Put a queued item held back during a recovery back into mpv (`append-play`: it plays
    /// at once when nothing else does).
    case restoreQueued(QueuedURL)
    /// Ask the server for the HTTP status of `url` (see `MediaURLProbe`) and report it with
    /// `noteProbeResult(entry:status:at:)`; the END_FILE of `entry` waits for it.
    case probe(entry: Int64, url: String)
    /// `playlist-remove` the entry with this id if it is still in the playlist and not the
    /// current one (keeps mpv's playlist at "current + queued" over a long session).
    case removeEntry(Int64)

    /// An item and the URL to queue for it.
    struct QueuedURL: Sendable, Equatable {
        /// The item's id.
        var item: Int64
        /// Its URL.
        var url: String
        /// Where it starts, seconds (0: the beginning), as `queueNext` was asked.
        var start: Double = 0
        /// Its gain (dB), as `queueNext` was asked; nil for none.
        var gain: Double?
    }
}

/// A timer the translator wants: the loop waits no longer than the earliest deadline and
/// then calls `PlaybackEventTranslator.fire(at:)`.
struct TranslatorTimer: Sendable, Equatable {
    /// What to do when it fires.
    enum Kind: Sendable, Equatable {
        /// Start reload attempt `attempt` of the recovering item.
        case reload(attempt: Int)
        /// The current entry has been buffering since the timer was set.
        case stallCheck(entry: Int64)
    }

    /// When.
    var deadline: ContinuousClock.Instant
    /// What.
    var kind: Kind
}
