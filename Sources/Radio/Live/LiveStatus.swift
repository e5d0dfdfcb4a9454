/// How a live channel's audio stands against its live edge, for the front ends.
public struct LiveStatus: Sendable, Equatable {
    /// Seconds between the audio heard and the live edge (0 at the edge).
    public var behind: Double
    /// How the listener's vote to end the song heard stands, once it voted.
    public var vote: LiveTally?
    /// Whether the radio handed over to this listening (`live <id>`), so that `radio` goes
    /// back to it; false for `mhz --live`.
    public var returnsToRadio: Bool

    /// Within this many seconds of the edge the audio counts as live: a segment's length
    /// and the player's start-up, which no listener can close.
    public static let edgeSlack = 3.0

    /// Creates a status.
    public init(behind: Double, vote: LiveTally? = nil, returnsToRadio: Bool = false) {
        self.behind = behind
        self.vote = vote
        self.returnsToRadio = returnsToRadio
    }

    /// Whether the audio is at the live edge.
    public var atEdge: Bool { behind < Self.edgeSlack }
}
