/// A live route's refusal (docs/PROTOCOL.md §11): `{"r":1,"err":…}`, with the seconds to
/// wait for `rate_limited` and, for a look-back refused, its words and the range kept.
public struct LiveRefusal: Codable, Sendable, Equatable {
    /// What refused it: `unknown_listener`, `not_listening`, `rate_limited`,
    /// `bad_begintime`, `out_of_range`, `not_found`…
    public var err: String
    /// A look-back refused: why, in words.
    public var message: String?
    /// `rate_limited`: seconds until a word is taken again.
    public var retryAfter: Int64?
    /// A look-back refused: the range kept, when anything is.
    public var available: Range?

    /// What a channel keeps, in milliseconds since the epoch.
    public struct Range: Codable, Sendable, Equatable {
        /// The start of the oldest segment kept.
        public var begintime: Int64
        /// The end of the newest segment.
        public var endtime: Int64

        /// Creates a range.
        public init(begintime: Int64, endtime: Int64) {
            self.begintime = begintime
            self.endtime = endtime
        }
    }

    /// Creates a refusal.
    public init(err: String, message: String? = nil, retryAfter: Int64? = nil, available: Range? = nil) {
        self.err = err
        self.message = message
        self.retryAfter = retryAfter
        self.available = available
    }

    /// The wire's names; `r` is always 1 (refused).
    enum CodingKeys: String, CodingKey {
        case r, err, message, available
        case retryAfter = "retry_after"
    }

    /// Reads a refusal; `r` is not checked (the HTTP status says it was refused).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        err = try container.decode(String.self, forKey: .err)
        message = try container.decodeIfPresent(String.self, forKey: .message)
        retryAfter = try container.decodeIfPresent(Int64.self, forKey: .retryAfter)
        available = try container.decodeIfPresent(Range.self, forKey: .available)
    }

    /// Writes the refusal, `"r":1` with it and only the fields it has.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(1, forKey: .r)
        try container.encode(err, forKey: .err)
        try container.encodeIfPresent(message, forKey: .message)
        try container.encodeIfPresent(retryAfter, forKey: .retryAfter)
        try container.encodeIfPresent(available, forKey: .available)
    }
}
