/// What one report changed in a profile: the song's state as it is now, the facet score
/// deltas, and the recent list as it is now.
struct ProfileChange: Sendable, Equatable {
    /// A delta of one facet value's score.
    struct FacetDelta: Sendable, Equatable {
        /// Artist, album or genre.
        var facet: ListenerProfile.Facet
        /// The facet value (see ``ListenerProfile/facetValue(_:of:)``).
        var value: String
        /// The change, added to the stored score.
        var delta: Double
    }

    /// The song reported on.
    var sid: String
    /// Whether it is liked now.
    var liked = false
    /// Whether it is trashed now.
    var trashed = false
    /// Its own score now.
    var songScore = 0.0
    /// Facet deltas: deltas, not values, so concurrent reports add up in any order.
    var facets: [FacetDelta] = []
    /// The recent list now, oldest first.
    var recent: [String] = []
}
