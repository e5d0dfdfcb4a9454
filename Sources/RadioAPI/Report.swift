/// One request to the playlist endpoint: a fetch or a piece of feedback, with everything
/// the server needs to interpret it (docs/PROTOCOL.md §3.1–§3.4).
public struct Report: Sendable, Equatable {
    /// What happened (`type=`).
    public var type: ReportType
    /// The channel being listened to (`channel=`); kept as text because web channel ids
    /// need not be numeric (`dj`).
    public var channel: String
    /// The song the report is about (`sid=`); `nil` only for `n`.
    public var sid: String?
    /// The recent history (`h=`), oldest first, or `nil` to omit the parameter. The
    /// endpoints put it into wire form (``ReportHistory/wireForm(_:)``); an empty list is
    /// sent as an empty `h=`.
    public var history: [ReportHistory.Entry]?
    /// Seconds of the current song already played (`pt=`).
    public var playedTime: Double?

    /// Creates a report.
    public init(type: ReportType, channel: String, sid: String? = nil, history: [ReportHistory.Entry]? = nil,
                playedTime: Double? = nil) {
        self.type = type
        self.channel = channel
        self.sid = sid
        self.history = history
        self.playedTime = playedTime
    }
}
