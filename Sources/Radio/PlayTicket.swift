/// Names one song the radio handed to the player (loaded, or queued to follow), so player
/// events can be matched to the song the machine means.
///
/// The machine issues tickets itself because it is pure: it cannot see the player's item
/// ids, which exist only once the session has performed an effect. The session maps each
/// player item to the ticket of the effect that created it, and the machine ignores every
/// ticket it no longer expects (a replaced song, a queued song taken back).
public struct PlayTicket: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Increasing for the machine's lifetime.
    public let rawValue: Int

    /// Wraps a number.
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// Tickets order by issue.
    public static func < (lhs: PlayTicket, rhs: PlayTicket) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `ticket 3`, for test failures and logs.
    public var description: String { "ticket \(rawValue)" }
}
