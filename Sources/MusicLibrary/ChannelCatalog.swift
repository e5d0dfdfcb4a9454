import RadioAPI

/// The station's channels: the personal channel over the whole library, then one channel
/// per genre and one per decade that has at least ``minimumChannelSize`` songs (fewer would
/// repeat the same songs over and over).
///
/// Channel ids are pinned in the database (see ``LibraryIndex``): the first time a genre or
/// decade qualifies it gets the next free id, and keeps it for good, so a client's stored
/// channel keeps meaning the same music while genres come and go. On a new database the
/// genres get 1, 2, … in name order, then the decades in time order. The list order
/// (`seq_id`) is the same: personal, genres by name, decades by time. The red-heart channel
/// `-3` is not listed: Douban did not list it and clients add it themselves
/// (docs/PROTOCOL.md §6.1); the playlist endpoint still answers it.
package struct ChannelCatalog: Sendable {
    /// The channels in display order (`seq_id`), channel `0` first.
    package let channels: [Channel]
    /// The track positions (indices into the library's tracks) of each listed channel, in
    /// library order: a playlist request walks them without looking a song id up.
    private let members: [String: [Int]]
    /// The genre names that have channels, in channel order.
    package let genres: [String]

    /// The fewest songs a genre or decade needs to become a channel.
    package static let minimumChannelSize = 3

    /// The personal channel as Douban named it (docs/PROTOCOL.md §6.1: `私人兆赫`, `Personal Radio`, `My`).
    package static let personal = Channel(id: Channel.personalID, name: "私人兆赫", nameEnglish: "Personal Radio",
                                  abbreviation: "My", sequence: 0)

    /// One genre or decade with enough songs to be a channel, before it has an id.
    package struct Group: Sendable, Equatable {
        /// The pin key: `genre:<lowercased name>` or `decade:<year>`.
        var key: String
        /// The display name: the genre as first seen in path order, or `1990s`.
        var name: String
        /// The short English name.
        var abbreviation: String
        /// The member tracks' positions in library order.
        var positions: [Int]
    }

    /// The genres and decades of `tracks` that qualify as channels, genres by name first,
    /// then decades by time: the order new channel ids are handed out in.
    package static func groups(for tracks: [LibraryTrack]) -> [Group] {
        var genres: [String: Group] = [:]
        var decades: [Int: Group] = [:]
        for (position, track) in tracks.enumerated() {
            if !track.genre.isEmpty {
                // "rock" and "Rock" are one channel, named as first seen in path order.
                let key = "genre:" + track.genre.lowercased()
                genres[key, default: Group(key: key, name: track.genre, abbreviation: abbreviation(track.genre),
                                           positions: [])].positions.append(position)
            }
            if let decade = track.decade {
                decades[decade, default: Group(key: "decade:\(decade)", name: "\(decade)s",
                                               abbreviation: (decade % 100 < 10 ? "0" : "") + "\(decade % 100)s", positions: [])]
                    .positions.append(position)
            }
        }
        let byGenre = genres.values.sorted { $0.key < $1.key }
        let byDecade = decades.sorted { $0.key < $1.key }.map(\.value)
        return (byGenre + byDecade).filter { $0.positions.count >= minimumChannelSize }
    }

    /// Builds the catalog for a library.
    ///
    /// - Parameters:
    ///   - tracks: the library's tracks in library order.
    ///   - pins: the channel id of every group key (groups without a pin are left out).
    package init(tracks: [LibraryTrack], pins: [String: Int]) {
        var channels = [Self.personal]
        var members = [Channel.personalID: Array(tracks.indices)]
        var genres: [String] = []
        for group in Self.groups(for: tracks) {
            guard let id = pins[group.key] else { continue }
            if group.key.hasPrefix("genre:") { genres.append(group.name) }
            channels.append(Channel(id: String(id), name: group.name, nameEnglish: group.name,
                                    abbreviation: group.abbreviation, sequence: channels.count))
            members[String(id)] = group.positions
        }
        self.channels = channels
        self.members = members
        self.genres = genres
    }

    /// Builds the catalog with ids handed out in ``groups(for:)`` order from 1, as on a new
    /// database.
    package init(tracks: [LibraryTrack]) {
        let pins = Dictionary(uniqueKeysWithValues: Self.groups(for: tracks).enumerated().map { ($1.key, $0 + 1) })
        self.init(tracks: tracks, pins: pins)
    }

    /// The track positions of a listed channel, or `nil` when no such channel is listed.
    package func positions(inChannel id: String) -> [Int]? {
        members[id]
    }

    /// A short form in the manner of Douban's `abbr_en` (`CH`, `EN`): the initials of a
    /// multi-word name (`Hip Hop` → `HH`), else its first two letters (`Ambient` → `AM`),
    /// uppercased. Names without letters keep their first two characters.
    package static func abbreviation(_ name: String) -> String {
        let words = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        if words.count >= 2 {
            return String(words.prefix(3).compactMap(\.first)).uppercased()
        }
        let letters = name.filter { $0.isLetter || $0.isNumber }
        return String((letters.isEmpty ? name : letters).prefix(2)).uppercased()
    }
}
