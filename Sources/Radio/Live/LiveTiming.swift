/// Where the live edge is now, from the last playlist read: its newest segment's end
/// moved on by the time since it was read, so the edge is known between reads and
/// measured on the station's clock, not the listener's.
public struct LiveTiming: Sendable, Equatable {
    /// The playlist read.
    public var window: LiveWindow
    /// When it was read, on the monotonic clock.
    public var readAt: ContinuousClock.Instant

    /// A timing from `window`, read at `readAt`.
    public init(window: LiveWindow, readAt: ContinuousClock.Instant) {
        self.window = window
        self.readAt = readAt
    }

    /// The newest end of audio on the air at `now`, in ms since the epoch.
    public func edge(at now: ContinuousClock.Instant) -> Int64 {
        let (seconds, attoseconds) = (now - readAt).components
        return window.newestEnd + seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// Where a player joining at `now` starts: the edge less the join lag.
    public func liveEdge(at now: ContinuousClock.Instant) -> Int64 { edge(at: now) - window.joinLag }

    /// Seconds the audio of `moment` (ms since the epoch) is behind the live edge at `now`;
    /// 0 at or past it.
    public func behind(_ moment: Int64, at now: ContinuousClock.Instant) -> Double {
        Double(max(0, liveEdge(at: now) - moment)) / 1000
    }
}
