/// A benchmark library: its songs' truth, and how a song the station answers is found in it.
package struct TasteLibrary: Sendable {
    /// Its name on the command line and in the tables: `generated`, `sound`, `wesnoth`.
    package let name: String
    /// The music folder the station serves.
    package let folder: String
    /// Every song, in a fixed order (the references draw from it by index).
    package let songs: [SongTruth]
    /// Years per era: 10 (decades) where the years span several decades, else 1.
    package let eraWidth: Int
    /// Title and artist (lower case) → index into ``songs``; title alone for titles that
    /// are unique; the file name's stem for untagged files.
    private let index: [String: Int]

    /// A library of `songs` in `folder`; `stems` holds, per song, the file name without its
    /// extension, which the station shows as the title of an untagged file.
    package init(name: String, folder: String, songs: [SongTruth], stems: [String] = []) {
        self.name = name
        self.folder = folder
        self.songs = songs
        let years = songs.compactMap(\.year)
        let span = (years.max() ?? 0) / 10 - (years.min() ?? 0) / 10
        eraWidth = span >= 3 ? 10 : 1
        var index: [String: Int] = [:]
        var titles: [String: Int] = [:]
        for (position, song) in songs.enumerated() {
            index[Self.key(song.title, song.artist)] = index[Self.key(song.title, song.artist)] ?? position
            titles[song.title.lowercased(), default: 0] += 1
        }
        for (position, song) in songs.enumerated() where titles[song.title.lowercased()] == 1 {
            index[Self.key(song.title, nil)] = position
        }
        for (position, stem) in stems.enumerated() where index[Self.key(stem, nil)] == nil {
            index[Self.key(stem, nil)] = position
        }
        self.index = index
    }

    /// The song the station means by this title and artist, if the library has it.
    package func truth(title: String, artist: String) -> SongTruth? {
        (index[Self.key(title, artist)] ?? index[Self.key(title, nil)]).map { songs[$0] }
    }

    /// The era of a year: its first year.
    package func era(of year: Int) -> Int { year / eraWidth * eraWidth }

    /// The traits a taste can name of a song.
    package func traits(of song: SongTruth) -> [Trait] {
        var traits: [Trait] = song.artist.isEmpty ? [] : [.artist(song.artist)]
        if let genre = song.genre, !genre.isEmpty { traits.append(.genre(genre)) }
        if let year = song.year { traits.append(.era(era(of: year))) }
        if let sound = song.sound { traits.append(.sound(sound)) }
        return traits
    }

    /// The artists, sorted; a song without an artist tag has none (no listener loves "").
    package var artists: [String] { Set(songs.map(\.artist).filter { !$0.isEmpty }).sorted() }
    /// The genres, sorted.
    package var genres: [String] { Set(songs.compactMap(\.genre).filter { !$0.isEmpty }).sorted() }
    /// The eras, in order.
    package var eras: [Int] { Set(songs.compactMap(\.year).map(era(of:))).sorted() }
    /// The kinds of sound.
    package var sounds: [SoundClass] { SoundClass.allCases.filter { kind in songs.contains { $0.sound == kind } } }

    /// One line: how many songs, artists, genres, which years.
    package var summary: String {
        var parts = ["\(songs.count) songs", "\(artists.count) artist\(artists.count == 1 ? "" : "s")",
                     "\(genres.count) genre\(genres.count == 1 ? "" : "s")"]
        let years = songs.compactMap(\.year)
        if let first = years.min(), let last = years.max() { parts.append("years \(first)–\(last)") }
        if !sounds.isEmpty {
            parts.append(sounds.map { kind in "\(songs.filter { $0.sound == kind }.count) \(kind.rawValue)" }
                .joined(separator: ", "))
        }
        return parts.joined(separator: ", ")
    }

    private static func key(_ title: String, _ artist: String?) -> String {
        title.lowercased() + "\u{0}" + (artist?.lowercased() ?? "\u{1}")
    }
}
