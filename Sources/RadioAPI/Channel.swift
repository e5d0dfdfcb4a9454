/// A channel ("MHz") as `/j/app/radio/channels` lists it (docs/PROTOCOL.md §6.1).
public struct Channel: Sendable, Equatable, Codable {
    /// The id used in `channel=`. Text, because servers sent it as a number or a string
    /// and web channel ids need not be numeric (`dj`).
    public var id: String
    /// Display name (e.g. `私人兆赫`).
    public var name: String
    /// English name; later servers left it empty.
    public var nameEnglish: String
    /// Short English name (e.g. `My`); may be empty.
    public var abbreviation: String
    /// Display order; "only a simple sort index, can be ignored" (the doubanfm-qt wiki).
    public var sequence: Int
    /// `live`: the station broadcasts the channel live (docs/PROTOCOL.md §11), an mhz
    /// extension that Douban's clients ignore; false when absent, as on every other station.
    public var live: Bool

    /// Creates a channel.
    public init(id: String, name: String, nameEnglish: String = "", abbreviation: String = "", sequence: Int = 0,
                live: Bool = false) {
        self.id = id
        self.name = name
        self.nameEnglish = nameEnglish
        self.abbreviation = abbreviation
        self.sequence = sequence
        self.live = live
    }

    /// The well-known id of the personal channel (私人兆赫).
    public static let personalID = "0"
    /// The well-known id of the red-heart channel (红心兆赫, the listener's liked songs).
    public static let redHeartID = "-3"

    enum CodingKeys: String, CodingKey {
        case id = "channel_id", name, nameEnglish = "name_en", abbreviation = "abbr_en", sequence = "seq_id", live
    }

    /// Decodes a channel whose `channel_id` and `seq_id` may be numbers or strings.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let id = try c.lenientString(.id) else {
            throw DecodingError.keyNotFound(CodingKeys.id, .init(codingPath: c.codingPath, debugDescription: "channel without channel_id"))
        }
        self.id = id
        name = try c.lenientString(.name) ?? id
        nameEnglish = try c.lenientString(.nameEnglish) ?? ""
        abbreviation = try c.lenientString(.abbreviation) ?? ""
        sequence = try c.lenientInt(.sequence) ?? 0
        // A flag as the API's others are read; one that is no flag does not refuse the list.
        live = ((try? c.lenientBool(.live)) ?? nil) ?? false
    }

    /// Encodes the canonical shape: a numeric id as a number, as Douban sent it; `live`
    /// only when true, so a channel not broadcast has Douban's fields alone.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(sequence, forKey: .sequence)
        try c.encode(abbreviation, forKey: .abbreviation)
        if let n = Int(id) { try c.encode(n, forKey: .id) } else { try c.encode(id, forKey: .id) }
        try c.encode(nameEnglish, forKey: .nameEnglish)
        if live { try c.encode(true, forKey: .live) }
    }
}
