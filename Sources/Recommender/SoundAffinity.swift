/// What a listener's liked and disliked songs say about other tracks' sound: per track, a
/// score from how close it sounds to the nearest liked song and to the nearest disliked
/// (skipped or trashed) one; and, for the reason shown with a song, which liked song it
/// sounds closest to.
///
/// With both kinds known, the score is `soundGain·(d_disliked − d_liked)`: a track that
/// sounds like a liked song and unlike a disliked one rises, the opposite falls. With only
/// one kind known, the other distance is taken as ``typicalDistance`` (closer than that
/// counts as near). Clamped to ±``cap``. Tracks not measured score 0.
///
/// Gain and cap are small beside the tags' (an artist's part reaches 3): on a library whose
/// songs of one genre sound alike, a loved artist's songs lie about as near the skipped
/// artists of that genre as the liked ones, so there the sound should lean, not outvote;
/// at this size it still separates calm from bright songs on a library whose tags say
/// nothing (95 % calm in `mhz-bench taste`), since there the distances differ by far more.
///
/// Compared with the last ``memory`` liked and ``memory`` disliked songs, and computed when
/// a draw asks, for the tracks it weighs (``parts(of:)``): at most 32 distances a track,
/// most of them abandoned part-way (``SoundSpace/nearestDistances(from:among:)``). A report
/// costs nothing here, and a listener holds no per-track array: a draw over a large library
/// weighs a sample of it (``DrawPool``), so the tracks asked about are a few thousand at most.
package struct SoundAffinity: Sendable {
    /// What the remembered songs were taken from: a table for a library, and the listener's
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

    /// What the remembered songs were taken from.
    package let key: Key
    /// The space the distances are measured in.
    private let space: any SoundSpace
    /// The liked positions compared with, measured ones only, oldest first.
    private let liked: [Int]
    /// The disliked positions compared with, measured ones only, oldest first.
    private let disliked: [Int]

    /// The sound scores over `space` against `liked` and `disliked` (positions, newest
    /// last; only the measured ones among the last ``memory`` of each count).
    package init(key: Key, space: any SoundSpace, liked: [Int], disliked: [Int]) {
        self.key = key
        self.space = space
        self.liked = liked.suffix(Self.memory).filter { space.isAnalysed($0) }
        self.disliked = disliked.suffix(Self.memory).filter { space.isAnalysed($0) }
    }

    /// Whether any remembered song is measured: otherwise every part is 0.
    package var isEmpty: Bool { liked.isEmpty && disliked.isEmpty }

    /// The sound's share of the score of the track at `position`.
    package func part(at position: Int) -> Double {
        guard !isEmpty else { return 0 }
        let near = liked.isEmpty ? nil : space.nearestDistance(to: position, among: liked, atLeast: 0) ?? .infinity
        let far = disliked.isEmpty ? nil : space.nearestDistance(to: position, among: disliked, atLeast: 0) ?? .infinity
        return Self.part(near: near, far: far)
    }

    /// ``part(at:)`` of each of `positions`, in order: the distances of all of them taken
    /// together (``SoundSpace/nearestDistances(from:among:)``).
    package func parts(of positions: [Int]) -> [Double] {
        guard !isEmpty else { return [Double](repeating: 0, count: positions.count) }
        let near = liked.isEmpty ? nil : space.nearestDistances(from: positions, among: liked)
        let far = disliked.isEmpty ? nil : space.nearestDistances(from: positions, among: disliked)
        return positions.indices.map { Self.part(near: near?[$0], far: far?[$0]) }
    }

    /// Adds ``part(at:)`` of each of `positions` to the score in the same slot of `scores`.
    package func addParts(of positions: [Int], to scores: inout [Double]) {
        guard !isEmpty else { return }
        for (slot, part) in parts(of: positions).enumerated() { scores[slot] += part }
    }

    /// The score from the distances to the nearest liked (`near`) and disliked (`far`)
    /// song: `nil` when the listener has none of that kind, `.infinity` when the track is
    /// not measured.
    private static func part(near: Float?, far: Float?) -> Double {
        var near = near ?? typicalDistance, far = far ?? typicalDistance
        // A track not measured is at no distance from anything: it scores 0.
        guard near.isFinite || far.isFinite else { return 0 }
        if near == .infinity { near = typicalDistance }
        if far == .infinity { far = typicalDistance }
        let score = soundGain * Double(far - near)
        return min(max(score, -cap), cap)
    }

    /// The liked song that the track at `position` sounds closest to, if any (the newest of
    /// equally close ones).
    package func nearestLikedSong(to position: Int) -> Int? {
        guard !liked.isEmpty else { return nil }
        return space.nearest(to: position, among: liked)?.position
    }
}
