import MusicLibrary

/// What one report changed in a profile: the song's state as it is now, the facet score
/// deltas, and the recent list as it is now.
package struct ProfileChange: Sendable, Equatable {
    /// A delta of one facet value's score.
    package struct FacetDelta: Sendable, Equatable {
        /// Artist, album or genre.
        var facet: TrackFacet
        /// The facet value (see ``LibraryTrack/facetValue(_:)``).
        var value: String
        /// The change, added to the stored score.
        var delta: Double
    }

    /// The song reported on.
    package var sid: String
    /// Whether it is liked now.
    package var liked = false
    /// Whether it is trashed now.
    package var trashed = false
    /// Its own score now.
    package var songScore = 0.0
    /// Facet deltas: deltas, not values, so concurrent reports add up in any order.
    package var facets: [FacetDelta] = []
    /// The recent list now, oldest first.
    package var recent: [String] = []
}
