/// What a track has besides itself that a listener can come to like or dislike: its
/// artist, its album and its genre. ``LibraryFacets`` indexes them; the recommender keeps a
/// score per facet value.
public enum TrackFacet: String, Sendable, CaseIterable {
    /// The artist, lowercased.
    case artist
    /// The album id.
    case album
    /// The genre, lowercased.
    case genre
}
