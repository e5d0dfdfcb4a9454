/// How long the current song has played, and whether it has played long enough to count
/// (``ListenRule``): a pure machine fed with what the radio narrates (a song started,
/// paused, resumed, left) and the time of each, so its owner sets one timer at a time.
///
/// Time is given, never read: `now` is a monotonic clock's seconds, so a change of the
/// wall clock does not make a song count early or late. Only time spent playing counts:
/// a pause stops it, and a seek does not add to it.
public struct ListenTracker: Sendable, Equatable {
    /// Where the current song is.
    public enum State: Sendable, Equatable {
        /// No song, or one that can no longer count (too short, already counted, left).
        case idle
        /// Playing since `since`, after `played` seconds of earlier play.
        case playing(PlayedSong, threshold: Double, played: Double, since: Double)
        /// Paused after `played` seconds of play.
        case paused(PlayedSong, threshold: Double, played: Double)
    }

    /// The current state.
    public private(set) var state: State = .idle

    /// A tracker with no song.
    public init() {}

    /// A song started at `now`; the one before is forgotten (whatever it was due has been
    /// taken with ``takeDue(at:)``). A song that can never count leaves the tracker idle.
    public mutating func start(_ song: PlayedSong, at now: Double) {
        guard let threshold = ListenRule.threshold(duration: song.duration) else {
            state = .idle
            return
        }
        state = .playing(song, threshold: threshold, played: 0, since: now)
    }

    /// Playback paused at `now`.
    public mutating func pause(at now: Double) {
        guard case .playing(let song, let threshold, let played, let since) = state else { return }
        state = .paused(song, threshold: threshold, played: played + max(0, now - since))
    }

    /// Playback resumed at `now`.
    public mutating func resume(at now: Double) {
        guard case .paused(let song, let threshold, let played) = state else { return }
        state = .playing(song, threshold: threshold, played: played, since: now)
    }

    /// The song was left (it ended, was skipped or trashed, the radio stopped) at `now`:
    /// what it had played still counts, once.
    public mutating func leave(at now: Double) -> PlayedSong? {
        let due = takeDue(at: now)
        state = .idle
        return due
    }

    /// Seconds from `now` until the song counts while it keeps playing; nil when nothing
    /// is to come (idle or paused).
    public func remaining(at now: Double) -> Double? {
        guard case .playing(_, let threshold, let played, let since) = state else { return nil }
        return max(0, threshold - played - max(0, now - since))
    }

    /// The song, once, when it has played long enough by `now`; it then no longer counts.
    public mutating func takeDue(at now: Double) -> PlayedSong? {
        switch state {
        case .idle:
            return nil
        case .playing(let song, let threshold, let played, let since):
            guard played + max(0, now - since) >= threshold else { return nil }
            state = .idle
            return song
        case .paused(let song, let threshold, let played):
            guard played >= threshold else { return nil }
            state = .idle
            return song
        }
    }
}
