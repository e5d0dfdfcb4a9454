/// What a live channel's media playlist said when it was read: where its first segment
/// starts, where its newest ends, and the point a player joining now starts from.
public struct LiveWindow: Sendable, Equatable {
    /// When the first listed segment's audio started on the air (its
    /// `EXT-X-PROGRAM-DATE-TIME`), in milliseconds since the epoch.
    public var firstStart: Int64
    /// The start of the segment three from the end, where a player joining now begins
    /// (RFC 8216 §6.3.3: no closer than three target durations to the end); the first
    /// segment when fewer are listed.
    public var joinStart: Int64
    /// When the newest listed segment's audio ends: the live edge as published.
    public var newestEnd: Int64

    /// Creates a window.
    public init(firstStart: Int64, joinStart: Int64, newestEnd: Int64) {
        self.firstStart = firstStart
        self.joinStart = joinStart
        self.newestEnd = newestEnd
    }

    /// How far the joining point is from the newest end: the distance from the edge at which
    /// the audio counts as live.
    public var joinLag: Int64 {
        let (lag, overflow) = newestEnd.subtractingReportingOverflow(joinStart)
        return overflow ? (joinStart < 0 ? .max : .min) : lag
    }
}
