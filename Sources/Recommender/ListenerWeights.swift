import Foundation
import MusicLibrary

/// One listener's ``ListenerProfile`` laid over one ``Library``: what a draw needs per
/// track position, kept up to date report by report, so a playlist request does array
/// reads and one `exp` per song instead of hashing song ids and facet names.
///
/// A track's weight is `e^score`, with the score summed exactly as
/// ``ListenerProfile/score(of:)`` sums it (own part, then artist, album and genre parts,
/// then the clamp), so the weights, and the seeded draws, are bit for bit those of the
/// profile. Built for one library ``generation``; after a rescan a new one is built.
package struct ListenerWeights: Sendable {
    /// The ``LibraryFacets/generation`` of the library these weights describe.
    package let generation: UInt64
    /// Per track position: ``ListenerProfile/songPart(_:)``.
    private var song: [Double]
    /// Per artist, album and genre id: ``ListenerProfile/facetPart(_:_:)`` (slot 0 stays 0).
    private var artist: [Double], album: [Double], genre: [Double]
    /// Per track position: whether the listener trashed the track.
    package private(set) var trashed: [Bool]
    /// Per track position: the weight, `e^score`, kept ready so a draw over thousands of
    /// candidates does no `exp` at all; a report recomputes the tracks it touched.
    private var weights: [Double] = []

    /// Lays `profile` over `library`.
    package init(profile: ListenerProfile, library: Library) {
        let facets = library.facets
        generation = facets.generation
        let count = library.tracks.count
        song = [Double](repeating: 0, count: count)
        trashed = [Bool](repeating: false, count: count)
        for sid in profile.songScores.keys + profile.liked {
            if let position = library.position(of: sid) { song[position] = profile.songPart(sid) }
        }
        for sid in profile.trashed {
            if let position = library.position(of: sid) { trashed[position] = true }
        }
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
        weights = (0..<count).map { computedWeight(at: $0, facets) }
    }

    /// Takes in what a report about the track at `position` of `library` changed in
    /// `profile`: the song's own part and trash mark, and its artist's, album's and genre's
    /// parts (the only things one report moves).
    package mutating func update(position: Int, of library: Library, from profile: ListenerProfile) {
        let track = library.tracks[position]
        song[position] = profile.songPart(track.sid)
        trashed[position] = profile.trashed.contains(track.sid)
        for facet in TrackFacet.allCases {
            let id = Int(library.facets.id(facet, at: position))
            guard id != 0, let value = track.facetValue(facet) else { continue }
            let part = profile.affinities[facet]?[value].map { ListenerProfile.facetPart($0, facet) } ?? 0
            switch facet {
            case .artist: artist[id] = part
            case .album: album[id] = part
            case .genre: genre[id] = part
            }
        }
        // The song itself and every track sharing its artist, album or genre moved.
        let facets = library.facets
        let artistID = facets.artist[position], albumID = facets.album[position], genreID = facets.genre[position]
        for index in weights.indices
        where index == position || (artistID != 0 && facets.artist[index] == artistID)
            || (albumID != 0 && facets.album[index] == albumID) || (genreID != 0 && facets.genre[index] == genreID) {
            weights[index] = computedWeight(at: index, facets)
        }
    }

    /// The weight of the track at `position`: `e^score`.
    package func weight(at position: Int, _ facets: LibraryFacets) -> Double {
        weights[position]
    }

    private func computedWeight(at position: Int, _ facets: LibraryFacets) -> Double {
        var total = song[position]
        total += artist[Int(facets.artist[position])]
        total += album[Int(facets.album[position])]
        total += genre[Int(facets.genre[position])]
        return exp(ListenerProfile.clamped(total))
    }
}
