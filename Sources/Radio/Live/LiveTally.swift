/// The station's answer to a listener's word on a live channel's song (`POST
/// /live/<channel>/feedback`, docs/PROTOCOL.md §11): how the vote to skip it stands.
public struct LiveTally: Sendable, Equatable {
    /// Whether the song is the one on the air (a vote counts only for it).
    public var onAir: Bool
    /// Listeners who voted to skip it (0 for a like or unlike).
    public var votes: Int
    /// Listeners counted (those who fetched a playlist in the last 30 s).
    public var listeners: Int
    /// Whether the votes end it, for everyone, at the next segment.
    public var ending: Bool
    /// Whether it has just left the air, its end still ahead of a listener at the live edge:
    /// the vote came after the song was over on the air, so there was nothing to end.
    public var ended: Bool

    /// Creates a tally.
    public init(onAir: Bool, votes: Int, listeners: Int, ending: Bool, ended: Bool = false) {
        self.onAir = onAir
        self.votes = votes
        self.listeners = listeners
        self.ending = ending
        self.ended = ended
    }
}
