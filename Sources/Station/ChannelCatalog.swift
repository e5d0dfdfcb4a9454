import RadioAPI

/// The station's channels: the personal channel over the whole library, and one channel
/// per genre that has at least two songs (a one-song channel would repeat that song).
///
/// Genre channels get ids 1, 2, … in the order of their names (case-insensitive), so ids
/// stay put while the set of genres does. The red-heart channel `-3` is not listed: Douban
/// did not list it and clients add it themselves (douban-protocol.md §6.1); the playlist
/// endpoint still answers it.
struct ChannelCatalog: Sendable {
    /// The channels in display order (`seq_id`), channel `0` first.
    let channels: [Channel]
    /// The song ids of each listed channel, in library order.
    private let members: [String: [String]]

    /// The fewest songs a genre needs to become a channel.
    static let minimumGenreSize = 2

    /// The personal channel as Douban named it (§6.1: `私人兆赫`, `Personal Radio`, `My`).
    static let personal = Channel(id: Channel.personalID, name: "私人兆赫", nameEnglish: "Personal Radio",
                                  abbreviation: "My", sequence: 0)

    /// Builds the catalog for a library.
    init(tracks: [LibraryTrack]) {
        var byGenre: [String: (name: String, sids: [String])] = [:]
        for track in tracks where !track.genre.isEmpty {
            // "rock" and "Rock" are one channel, named as first seen in path order.
            let key = track.genre.lowercased()
            byGenre[key, default: (track.genre, [])].sids.append(track.sid)
        }
        let genres = byGenre.filter { $0.value.sids.count >= Self.minimumGenreSize }
            .sorted { $0.key < $1.key }
        var channels = [Self.personal]
        var members = [Channel.personalID: tracks.map(\.sid)]
        for (index, genre) in genres.enumerated() {
            let id = String(index + 1)
            channels.append(Channel(id: id, name: genre.value.name, nameEnglish: genre.value.name,
                                    abbreviation: Self.abbreviation(genre.value.name), sequence: index + 1))
            members[id] = genre.value.sids
        }
        self.channels = channels
        self.members = members
    }

    /// The song ids of a listed channel, or `nil` when no such channel is listed.
    func songIDs(inChannel id: String) -> [String]? {
        members[id]
    }

    /// The genre names that have channels, in channel order.
    var genres: [String] {
        channels.dropFirst().map(\.name)
    }

    /// A short form in the manner of Douban's `abbr_en` (`CH`, `EN`): the initials of a
    /// multi-word name (`Hip Hop` → `HH`), else its first two letters (`Ambient` → `AM`),
    /// uppercased. Names without letters keep their first two characters.
    static func abbreviation(_ name: String) -> String {
        let words = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        if words.count >= 2 {
            return String(words.prefix(3).compactMap(\.first)).uppercased()
        }
        let letters = name.filter { $0.isLetter || $0.isNumber }
        return String((letters.isEmpty ? name : letters).prefix(2)).uppercased()
    }
}
