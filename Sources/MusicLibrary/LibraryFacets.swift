import Synchronization

/// The artist, album and genre of every track of one ``Library`` as small integers, built
/// once per scan, so the recommender scores a channel of thousands of songs with array
/// reads instead of hashing strings per song per request.
///
/// Ids are dense per facet and start at 1; 0 stands for "no value" (an empty tag, about
/// which nothing is learned, see ``LibraryTrack/facetValue(_:)``). A listener's
/// per-facet scores then live in arrays indexed by these ids (``ListenerWeights``), whose
/// slot 0 always holds 0.
package struct LibraryFacets: Sendable {
    /// Distinguishes libraries: every built library gets the next number, so weights laid
    /// over one library are never used with another (positions and ids differ).
    package let generation: UInt64
    /// Per track position: its artist id.
    package let artist: [Int32]
    /// Per track position: its album id.
    package let album: [Int32]
    /// Per track position: its genre id.
    package let genre: [Int32]
    /// The id of each facet value (``LibraryTrack/facetValue(_:)``) by facet.
    private let ids: [TrackFacet: [String: Int32]]
    /// The tracks of each artist, album and genre id.
    private let members: [FacetMembers]

    private static let counter = Atomic<UInt64>(0)

    /// Interns the facet values of `tracks` (in library order).
    package init(tracks: [LibraryTrack]) {
        generation = Self.counter.add(1, ordering: .relaxed).newValue
        var ids: [TrackFacet: [String: Int32]] = [:]
        var columns: [TrackFacet: [Int32]] = [:]
        for facet in TrackFacet.allCases {
            var table: [String: Int32] = [:]
            var column = [Int32](repeating: 0, count: tracks.count)
            for (position, track) in tracks.enumerated() {
                guard let value = track.facetValue(facet) else { continue }
                if let id = table[value] {
                    column[position] = id
                } else {
                    let id = Int32(table.count + 1)
                    table[value] = id
                    column[position] = id
                }
            }
            ids[facet] = table
            columns[facet] = column
        }
        self.ids = ids
        artist = columns[.artist] ?? []
        album = columns[.album] ?? []
        genre = columns[.genre] ?? []
        members = [TrackFacet.artist, .album, .genre].map { facet in
            FacetMembers(column: columns[facet] ?? [], idCount: (ids[facet]?.count ?? 0) + 1)
        }
    }

    /// The tracks with the id for `facet` (0: the tracks without a value), in library order.
    package func positions(of id: Int32, _ facet: TrackFacet) -> ArraySlice<Int32> {
        members[Self.index(facet)].positions(of: id)
    }

    /// How many tracks have the id for `facet`.
    package func count(of id: Int32, _ facet: TrackFacet) -> Int {
        members[Self.index(facet)].count(of: id)
    }

    private static func index(_ facet: TrackFacet) -> Int {
        switch facet {
        case .artist: 0
        case .album: 1
        case .genre: 2
        }
    }

    /// How many ids a facet has, counting the 0 of "no value".
    package func idCount(_ facet: TrackFacet) -> Int {
        (ids[facet]?.count ?? 0) + 1
    }

    /// The id of a facet value, or `nil` when no track of this library has it.
    package func id(of value: String, _ facet: TrackFacet) -> Int32? {
        ids[facet]?[value]
    }

    /// The id of the track at `position` for `facet` (0: none).
    package func id(_ facet: TrackFacet, at position: Int) -> Int32 {
        switch facet {
        case .artist: artist[position]
        case .album: album[position]
        case .genre: genre[position]
        }
    }
}
