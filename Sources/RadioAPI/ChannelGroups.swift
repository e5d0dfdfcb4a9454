/// The mobile v2 channel answer (`/v2/fm/app_channels`, docs/PROTOCOL.md §6.1, fixture
/// F12): channels in named groups, `{"groups":[{"group_name","chls":[{"id","name",…}]}]}`.
/// A channel may appear in several groups; the list keeps its first appearance.
struct ChannelGroups: Decodable {
    /// The channels in group order, each once, numbered in that order.
    var channels: [Channel]

    private struct Group: Decodable {
        var chls: [Entry]?
    }

    private struct Entry: Decodable {
        var id: String
        var name: String

        enum CodingKeys: String, CodingKey { case id, name }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            guard let id = try c.lenientString(.id) else {
                throw DecodingError.keyNotFound(CodingKeys.id, .init(codingPath: c.codingPath, debugDescription: "channel without id"))
            }
            self.id = id
            name = try c.lenientString(.name) ?? id
        }
    }

    enum CodingKeys: String, CodingKey { case groups }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var seen = Set<String>()
        channels = []
        for group in try c.decode([Group].self, forKey: .groups) {
            for entry in group.chls ?? [] where seen.insert(entry.id).inserted {
                channels.append(Channel(id: entry.id, name: entry.name, sequence: channels.count))
            }
        }
    }
}
