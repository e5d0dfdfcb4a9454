/// What a listener's liked and disliked songs say about every other track's sound: per
/// track position, a score from how close it sounds to the nearest liked song and to the
/// nearest disliked (skipped or trashed) one, and which liked song it is closest to (for
/// the reason shown with it).
///
/// With both kinds known, the score is `soundGain·(d_disliked − d_liked)`: a track that
/// sounds like a liked song and unlike a disliked one rises, the opposite falls. With only
/// one kind known, the other distance is taken as ``typicalDistance`` (closer than that
/// counts as near). Clamped to ±``cap``. Tracks not measured score 0.
///
/// Gain and cap are small beside the tags' (an artist's part reaches 3): on a library whose
/// songs of one genre sound alike, a loved artist's songs lie about as near the skipped
/// artists of that genre as the liked ones, and a larger sound part was noise that pulled
/// the loved share of `mhz-bench taste`'s artists listener from 9× the base rate to 3.7×;
/// at this size the sound still separates calm from bright songs on a library whose tags
/// say nothing (95 % calm), since there the distances differ by far more.
///
/// Built from the last ``memory`` liked and ``memory`` disliked songs (cost: tracks ×
/// 2·memory distances), again only when the listener's likes or dislikes, the library or
/// the measured share change (``Key``).
package struct SoundAffinity: Sendable {
    /// What the scores were computed from: a table for a library, and the listener's
    /// likes and dislikes at a revision.
    package struct Key: Sendable, Equatable {
        /// The library's ``LibraryFacets/generation``.
        var generation: UInt64
        /// How many tracks the table had measured.
        var analysed: Int
        /// The listener's ``ListenerProfiles`` revision of likes and dislikes.
        var revision: UInt64
    }

    /// How much a unit of distance moves the score.
    package static let soundGain = 0.75
    /// The most the sound contributes, either way.
    package static let cap = 1.5
    /// The distance counted as neither near nor far (random tracks average about 1.4).
    package static let typicalDistance: Float = 1.0
    /// How many of the latest liked, and of the latest disliked, songs are compared with.
    package static let memory = 16

    /// What the scores were computed from.
    package let key: Key
    /// Per position: the sound's share of the score (empty: nothing to say).
    private let parts: [Double]
    /// Per position: the closest liked song, -1 for none.
    private let nearestLiked: [Int32]

    /// The scores of every track of `space` against `liked` and `disliked` (positions,
    /// newest last; only the last ``memory`` of each count).
    package init(key: Key, space: any SoundSpace, liked: [Int], disliked: [Int]) {
        self.key = key
        let liked = liked.suffix(Self.memory).filter { space.isAnalysed($0) }
        let disliked = disliked.suffix(Self.memory).filter { space.isAnalysed($0) }
        guard !liked.isEmpty || !disliked.isEmpty else {
            parts = []
            nearestLiked = []
            return
        }
        var parts = [Double](repeating: 0, count: space.trackCount)
        var nearest = [Int32](repeating: -1, count: space.trackCount)
        for position in 0..<space.trackCount where space.isAnalysed(position) {
            var toLiked = Float.infinity, toDisliked = Float.infinity
            for other in liked {
                if let distance = space.distance(position, other), distance < toLiked {
                    toLiked = distance
                    nearest[position] = Int32(other)
                }
            }
            for other in disliked {
                if let distance = space.distance(position, other), distance < toDisliked { toDisliked = distance }
            }
            if toLiked == .infinity { toLiked = Self.typicalDistance }
            if toDisliked == .infinity { toDisliked = Self.typicalDistance }
            let score = Self.soundGain * Double(toDisliked - toLiked)
            parts[position] = min(max(score, -Self.cap), Self.cap)
        }
        self.parts = parts
        nearestLiked = nearest
    }

    /// The sound's share of the score of the track at `position`.
    package func part(at position: Int) -> Double {
        parts.isEmpty ? 0 : parts[position]
    }

    /// The liked song that the track at `position` sounds closest to, if any.
    package func nearestLikedSong(to position: Int) -> Int? {
        guard !nearestLiked.isEmpty, nearestLiked[position] >= 0 else { return nil }
        return Int(nearestLiked[position])
    }
}
