import Foundation
import MusicLibrary

/// One listener's ``ListenerProfile`` laid over one ``Library``: what a draw needs per
/// track position, kept up to date report by report, so a playlist request does array
/// reads instead of hashing song ids and facet names.
///
/// A track's score is summed exactly as ``ListenerProfile/score(of:)`` sums it (own part,
/// then artist, album and genre parts, then the clamp), so the scores and weights (`e^score`),
/// and the seeded draws, are bit for bit those of the profile. Beside the scores: which
/// tracks the listener has said no to (for exploration, see ``isOpen(_:)``) and how many
/// songs of each artist it liked (for the household's share and the reasons). Built for one
/// library ``generation``; after a rescan a new one is built.
package struct ListenerWeights: Sendable {
    /// The ``LibraryFacets/generation`` of the library these weights describe.
    package let generation: UInt64
    /// ``ListenerProfile/songPart(_:)`` by track position, for the tracks that have one (the
    /// few the listener reported on; 8 bytes a track for all 50 000 of a large library,
    /// times every listener, was most of a listener's memory).
    private var song: [Int: Double]
    /// Per track position: what the listener said of the song itself, as ``Mark`` bits.
    private var marks: [UInt8]
    /// Per artist, album and genre id: ``ListenerProfile/facetPart(_:_:)`` (slot 0 stays 0).
    private var artist: [Double], album: [Double], genre: [Double]
    /// Per artist, album and genre id: whether a song of it was trashed. Exploration never
    /// goes there (slot 0, no value, is never marked).
    private var artistTrashed: [Bool], albumTrashed: [Bool], genreTrashed: [Bool]
    /// Per artist id: how many of its songs carry the listener's red heart.
    private var likedByArtist: [Int32]
    /// Per artist id: whether the listener reported on any song of it (slot 0: no artist,
    /// counted as heard: there is nothing new to find there).
    private var artistHeard: [Bool]
    /// Songs the listener reported on (liked, trashed, or with a score of their own): how
    /// much the listener has taught, which fades the household's share.
    package private(set) var songsTaught: Int
    /// The songs, artists, albums and genres whose part is heavy, most lifted first.
    package private(set) var heavy: HeavyUnits

    /// Lays `profile` over `library`.
    package init(profile: ListenerProfile, library: Library) {
        let facets = library.facets
        generation = facets.generation
        let count = library.tracks.count
        var song: [Int: Double] = [:]
        var marks = [UInt8](repeating: 0, count: count)
        for sid in profile.songScores.keys + profile.liked {
            if let position = library.position(of: sid) { Self.set(profile.songPart(sid), at: position, &song, &marks) }
        }
        artistTrashed = [Bool](repeating: false, count: facets.idCount(.artist))
        albumTrashed = [Bool](repeating: false, count: facets.idCount(.album))
        genreTrashed = [Bool](repeating: false, count: facets.idCount(.genre))
        for sid in profile.trashed {
            if let position = library.position(of: sid) {
                marks[position] |= Mark.trashed
                artistTrashed[Int(facets.artist[position])] = true
                albumTrashed[Int(facets.album[position])] = true
                genreTrashed[Int(facets.genre[position])] = true
            }
        }
        artistTrashed[0] = false
        albumTrashed[0] = false
        genreTrashed[0] = false
        likedByArtist = [Int32](repeating: 0, count: facets.idCount(.artist))
        artistHeard = [Bool](repeating: false, count: facets.idCount(.artist))
        artistHeard[0] = true
        for value in (profile.affinities[.artist] ?? [:]).keys {
            if let id = facets.id(of: value, .artist) { artistHeard[Int(id)] = true }
        }
        for sid in profile.liked {
            if let position = library.position(of: sid) {
                marks[position] |= Mark.liked
                likedByArtist[Int(facets.artist[position])] += 1
            }
        }
        songsTaught = Set(profile.songScores.keys).union(profile.liked).union(profile.trashed).count
        var parts: [TrackFacet: [Double]] = [:]
        for facet in TrackFacet.allCases {
            var column = [Double](repeating: 0, count: facets.idCount(facet))
            for (value, stored) in profile.affinities[facet] ?? [:] {
                if let id = facets.id(of: value, facet) { column[Int(id)] = ListenerProfile.facetPart(stored, facet) }
            }
            parts[facet] = column
        }
        artist = parts[.artist] ?? [0]
        album = parts[.album] ?? [0]
        genre = parts[.genre] ?? [0]
        for sid in profile.songScores.keys + profile.liked + profile.trashed {
            if let position = library.position(of: sid) { marks[position] |= Mark.taught }
        }
        self.song = song
        self.marks = marks
        var candidates = song.map { HeavyUnits.Unit(share: $0.value, count: 1, kind: .song, id: $0.key) }
        for (kind, facet) in [(HeavyUnits.Kind.artist, TrackFacet.artist), (.album, .album), (.genre, .genre)] {
            let column = parts[facet] ?? [0]
            for id in column.indices.dropFirst() where column[id] >= HeavyUnits.threshold {
                candidates.append(HeavyUnits.Unit(share: column[id], count: facets.count(of: Int32(id), facet),
                                                  kind: kind, id: id))
            }
        }
        heavy = HeavyUnits(candidates)
    }

    /// Takes in what a report about the track at `position` of `library` changed in
    /// `profile`: the song's own part and trash mark, its artist's, album's and genre's
    /// parts and trash marks, and its artist's count of liked songs (the only things one
    /// report moves).
    package mutating func update(position: Int, of library: Library, from profile: ListenerProfile) {
        let track = library.tracks[position]
        let facets = library.facets
        let likedBefore = isLiked(position), taughtBefore = marks[position] & Mark.taught != 0
        let songBefore = song[position] ?? 0
        setSongPart(profile.songPart(track.sid), at: position)
        heavy.move(.song, id: position, count: 1, from: songBefore, to: song[position] ?? 0)
        marks[position] &= ~(Mark.trashed | Mark.liked | Mark.taught)
        if profile.trashed.contains(track.sid) { marks[position] |= Mark.trashed }
        if profile.likes(track.sid) { marks[position] |= Mark.liked }
        if Self.taught(track.sid, profile) { marks[position] |= Mark.taught }
        let artistID = Int(facets.artist[position]), albumID = Int(facets.album[position])
        let genreID = Int(facets.genre[position])
        if isTrashed(position) {
            if artistID != 0 { artistTrashed[artistID] = true }
            if albumID != 0 { albumTrashed[albumID] = true }
            if genreID != 0 { genreTrashed[genreID] = true }
        }
        // Only this song's heart and place among the taught ones can have moved.
        if isLiked(position) != likedBefore { likedByArtist[artistID] += isLiked(position) ? 1 : -1 }
        let taughtNow = marks[position] & Mark.taught != 0
        if taughtNow != taughtBefore { songsTaught += taughtNow ? 1 : -1 }
        if let value = track.facetValue(.artist), profile.affinities[.artist]?[value] != nil { artistHeard[artistID] = true }
        for facet in TrackFacet.allCases {
            let id = Int(facets.id(facet, at: position))
            guard id != 0, let value = track.facetValue(facet) else { continue }
            let part = profile.affinities[facet]?[value].map { ListenerProfile.facetPart($0, facet) } ?? 0
            let before: Double
            switch facet {
            case .artist: (before, artist[id]) = (artist[id], part)
            case .album: (before, album[id]) = (album[id], part)
            case .genre: (before, genre[id]) = (genre[id], part)
            }
            heavy.move(HeavyUnits.Kind(facet), id: id, count: facets.count(of: Int32(id), facet), from: before, to: part)
        }
    }

    /// The weight of the track at `position`: `e^score`.
    package func weight(at position: Int, _ facets: LibraryFacets) -> Double {
        exp(score(at: position, facets))
    }

    /// The learned score of the track at `position` of the library whose `facets` these are,
    /// bit for bit ``ListenerProfile/score(of:)``'s: its own part (kept only for the songs
    /// reported on), then its artist's, album's and genre's, then the clamp. Summed when asked
    /// rather than kept per track: three reads a track cost a draw less than 8 bytes a track
    /// cost every listener in memory, and a report recomputes nothing.
    package func score(at position: Int, _ facets: LibraryFacets) -> Double {
        var total = marks[position] & Mark.ownPart != 0 ? song[position] ?? 0 : 0
        total += artist[Int(facets.artist[position])]
        total += album[Int(facets.album[position])]
        total += genre[Int(facets.genre[position])]
        return ListenerProfile.clamped(total)
    }

    /// Whether exploration may offer the track at `position`: the listener has said no to
    /// none of it. Not trashed, no song of its artist, album or genre trashed, neither the
    /// song nor its artist below zero (skipped more than enjoyed), and its album and genre
    /// not below ``openFloor`` (one skip there is not a no to all of them).
    package func isOpen(_ position: Int, _ facets: LibraryFacets) -> Bool {
        let artistID = Int(facets.artist[position]), albumID = Int(facets.album[position])
        let genreID = Int(facets.genre[position])
        return marks[position] & (Mark.trashed | Mark.belowZero) == 0
            && !artistTrashed[artistID] && !albumTrashed[albumID] && !genreTrashed[genreID]
            && artist[artistID] >= 0 && album[albumID] >= Self.openFloor && genre[genreID] >= Self.openFloor
    }

    /// Whether the listener never reported on a song of this track's artist: where
    /// exploration looks first.
    package func isNew(_ position: Int, _ facets: LibraryFacets) -> Bool {
        !artistHeard[Int(facets.artist[position])]
    }

    /// The lowest album or genre share that exploration still goes to.
    package static let openFloor = -0.25

    /// The artist's share of the track's score (0 for an artist never reported on).
    package func artistPart(at position: Int, _ facets: LibraryFacets) -> Double {
        artist[Int(facets.artist[position])]
    }

    /// How many songs by the artist with id `artist` (not 0) carry the listener's heart.
    package func likedCount(artist: Int32) -> Int {
        Int(likedByArtist[Int(artist)])
    }

    /// How many songs by the artist of the track at `position` carry the listener's heart
    /// (0 for a track without an artist tag).
    package func likedCount(artistOf position: Int, _ facets: LibraryFacets) -> Int {
        let id = Int(facets.artist[position])
        return id == 0 ? 0 : Int(likedByArtist[id])
    }

    /// Whether the listener trashed the track at `position`.
    package func isTrashed(_ position: Int) -> Bool {
        marks[position] & Mark.trashed != 0
    }

    /// Whether the track at `position` carries the listener's heart.
    package func isLiked(_ position: Int) -> Bool {
        marks[position] & Mark.liked != 0
    }

    /// `positions` without the tracks the listener trashed, in order.
    package func untrashed(_ positions: [Int]) -> [Int] {
        positions.filter { marks[$0] & Mark.trashed == 0 }
    }

    /// The bits of ``marks``.
    private enum Mark {
        /// The listener trashed the song.
        static let trashed: UInt8 = 1
        /// The song carries the listener's heart.
        static let liked: UInt8 = 2
        /// The song's own part is below zero (skipped more than enjoyed).
        static let belowZero: UInt8 = 4
        /// The song has a part of its own, in ``song``.
        static let ownPart: UInt8 = 8
        /// The listener reported on the song: it counts in ``songsTaught``.
        static let taught: UInt8 = 16
    }

    /// Whether `sid` counts among the songs `profile` was taught: liked, trashed, or with a
    /// score of its own (even one summed back to zero).
    private static func taught(_ sid: String, _ profile: ListenerProfile) -> Bool {
        profile.songScores[sid] != nil || profile.likes(sid) || profile.trashed.contains(sid)
    }

    private mutating func setSongPart(_ part: Double, at position: Int) {
        Self.set(part, at: position, &song, &marks)
    }

    private static func set(_ part: Double, at position: Int, _ song: inout [Int: Double], _ marks: inout [UInt8]) {
        marks[position] &= ~(Mark.belowZero | Mark.ownPart)
        if part == 0 {
            song[position] = nil
            return
        }
        song[position] = part
        marks[position] |= Mark.ownPart | (part < 0 ? Mark.belowZero : 0)
    }

}
