/// The station's answer to a listener's word on a live channel's song (`POST
/// /live/<channel>/feedback`, docs/PROTOCOL.md §11): `{"r":0,"sid","type","on_air",
/// "votes","listeners","ending","ended"}`, how the vote to skip the song stands.
public struct LiveFeedbackAnswer: Codable, Sendable, Equatable {
    /// The song the word was about.
    public var sid: String
    /// The word, as sent.
    public var type: ReportType
    /// Whether the song is the one on the air (§11's rule, the same as `aired.json`'s):
    /// a vote counts only for it.
    public var onAir: Bool
    /// Listeners who voted to skip it (0 for a like or unlike).
    public var votes: Int
    /// Listeners counted (those who fetched a playlist in the last five target durations).
    public var listeners: Int
    /// Whether the votes end it, for everyone, at the next segment.
    public var ending: Bool
    /// For a skip or trash: whether it has just left the air, its end still ahead of a
    /// listener at the live edge, so there was nothing to end and no vote was counted.
    /// Absent (false) from a station older than the field.
    public var ended: Bool

    /// Creates an answer.
    public init(sid: String, type: ReportType, onAir: Bool, votes: Int, listeners: Int, ending: Bool,
                ended: Bool = false) {
        self.sid = sid
        self.type = type
        self.onAir = onAir
        self.votes = votes
        self.listeners = listeners
        self.ending = ending
        self.ended = ended
    }

    /// The wire's names; `r` is always 0 (taken: a refusal has another shape).
    enum CodingKeys: String, CodingKey {
        case r, sid, type, votes, listeners, ending, ended
        case onAir = "on_air"
    }

    /// Reads an answer; `r` is not checked (a refusal comes with another status).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sid = try container.decode(String.self, forKey: .sid)
        type = try container.decode(ReportType.self, forKey: .type)
        onAir = try container.decode(Bool.self, forKey: .onAir)
        votes = try container.decode(Int.self, forKey: .votes)
        listeners = try container.decode(Int.self, forKey: .listeners)
        ending = try container.decode(Bool.self, forKey: .ending)
        ended = try container.decodeIfPresent(Bool.self, forKey: .ended) ?? false
    }

    /// Writes the answer, `"r":0` with it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(0, forKey: .r)
        try container.encode(sid, forKey: .sid)
        try container.encode(type, forKey: .type)
        try container.encode(onAir, forKey: .onAir)
        try container.encode(votes, forKey: .votes)
        try container.encode(listeners, forKey: .listeners)
        try container.encode(ending, forKey: .ending)
        try container.encode(ended, forKey: .ended)
    }
}
