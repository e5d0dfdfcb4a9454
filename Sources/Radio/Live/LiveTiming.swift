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
        let elapsed = Self.sum(Self.product(seconds, 1000), attoseconds / 1_000_000_000_000_000)
        return Self.sum(window.newestEnd, elapsed)
    }

    /// Where a player joining at `now` starts: the edge less the join lag.
    public func liveEdge(at now: ContinuousClock.Instant) -> Int64 { Self.sum(edge(at: now), -window.joinLag) }

    /// Seconds the audio of `moment` (ms since the epoch) is behind the live edge at `now`;
    /// 0 at or past it.
    public func behind(_ moment: Int64, at now: ContinuousClock.Instant) -> Double {
        max(0, Double(liveEdge(at: now)) - Double(moment)) / 1000
    }

    // The moments are the station's numbers (its playlist's dates, its programme's times)
    // and the listener's (a `seek` of any finite length): what is worked out from them is
    // held at the ends of 64 bits rather than trapping.

    /// `seconds` as whole milliseconds, held within 64 bits; not a number is 0.
    public static func milliseconds(_ seconds: Double) -> Int64 { units(seconds, perSecond: 1000) }

    /// `seconds` in whole units of which a second holds `perSecond` (1 000 000 for the
    /// microseconds of MPRIS), held within 64 bits; not a number is 0. For any length that
    /// came from outside: a station's `length`, a file's duration as mpv reads it.
    public static func units(_ seconds: Double, perSecond: Double) -> Int64 {
        if seconds.isNaN { return 0 }
        let value = (seconds * perSecond).rounded()
        return Int64(exactly: value) ?? (value < 0 ? .min : .max)
    }

    /// `a + b`, held at the ends of 64 bits.
    public static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        let (value, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b < 0 ? .min : .max) : value
    }

    /// `a × b`, held at the ends of 64 bits.
    static func product(_ a: Int64, _ b: Int64) -> Int64 {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? ((a < 0) != (b < 0) ? .min : .max) : value
    }
}
