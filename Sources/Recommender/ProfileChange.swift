import MusicLibrary

/// What one report changed in a profile: the song's state, the scores of the facets it
/// moved and the recent list when it moved, each as it is now (a listener's changes are
/// written in the order they were made, see ``FeedbackWriter``).
package struct ProfileChange: Sendable, Equatable {
    /// One facet value's score as it is now.
    package struct FacetScore: Sendable, Equatable {
        /// Artist, album or genre.
        var facet: TrackFacet
        /// The facet value (see ``LibraryTrack/facetValue(_:)``).
        var value: String
        /// Its stored score now.
        var score: Double
    }

    /// The song reported on.
    package var sid: String
    /// Whether it is liked now.
    package var liked = false
    /// Whether it is trashed now.
    package var trashed = false
    /// Its own score now.
    package var songScore = 0.0
    /// The facets the report moved, with their scores now.
    package var facets: [FacetScore] = []
    /// The recent list now, oldest first; `nil` when the report left it as it was (a heart
    /// given or taken back says nothing about what was heard), so nothing is written for it.
    package var recent: [String]?
}
