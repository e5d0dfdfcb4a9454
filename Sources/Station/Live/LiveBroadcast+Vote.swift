/// What a listener's vote on a live channel's song comes to, as ``LiveBroadcast/voteToSkip(_:by:)``
/// answers it.
extension LiveBroadcast {
    /// What a vote to skip made of the song on the air.
    struct Tally: Sendable, Equatable {
        /// The song voted on.
        var sid: String
        /// Listeners who voted to skip or trash it.
        var votes: Int
        /// Listeners listening (``LiveAudience/listeners(now:)``), the voter among them.
        var listeners: Int
        /// Whether more than half voted: the song ends at the next segment boundary.
        var ending: Bool
    }

    /// What a vote to skip came to.
    enum Vote: Sendable, Equatable {
        /// Counted.
        case counted(Tally)
        /// The song is not the one on the air: nothing to count.
        case notOnAir
        /// The voter fetched no playlist lately: no vote.
        case notListening
    }
}
