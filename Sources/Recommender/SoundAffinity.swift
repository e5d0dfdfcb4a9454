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
/// artists of that genre as the liked ones, so there the sound should lean, not outvote;
/// at this size it still separates calm from bright songs on a library whose tags say
/// nothing (95 % calm in `mhz-bench taste`), since there the distances differ by far more.
///
/// Compared with the last ``memory`` liked and ``memory`` disliked songs. Kept up to date
/// song by song (``update(key:space:liked:disliked:)``): a song that joins either list costs
/// one pass over the library (its distance to every track, which can only bring a track's
/// nearest song closer); a song that leaves costs a look again only at the tracks it was
/// nearest to. A listener's report therefore costs about two passes of the library's
/// distances, not one per remembered song; a new library or sound table starts over.
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
    package private(set) var key: Key
    /// The liked positions compared with, oldest first.
    private var liked: [Int] = []
    /// The disliked positions compared with, oldest first.
    private var disliked: [Int] = []
    /// Per position: the nearest liked song (empty while none).
    private var toLiked = Nearest()
    /// Per position: the nearest disliked song (empty while none).
    private var toDisliked = Nearest()

    /// Per position, the nearest of a set of songs and its distance.
    private struct Nearest {
        /// Distances, `.infinity` for a track not measured.
        var distance: [Float] = []
        /// Positions of the nearest song, -1 for none.
        var song: [Int32] = []

        var isEmpty: Bool { distance.isEmpty }

        /// Brings each track's nearest song closer where `position` is nearer or as near: on
        /// a tie the song taken in later wins, as ``SoundSpace/nearest(to:among:)`` keeps the
        /// last of equally close ones. Why the newest: songs leave the memory oldest first,
        /// and a track whose nearest leaves is searched again among all that stay; a library
        /// with duplicate files (or one tone copied 50 000 times, as the scale benchmark's)
        /// would otherwise tie most tracks to the oldest song and search them all again at
        /// every report.
        mutating func add(_ position: Int, space: any SoundSpace) {
            if distance.isEmpty {
                distance = [Float](repeating: .infinity, count: space.trackCount)
                song = [Int32](repeating: -1, count: space.trackCount)
            }
            let from = space.distances(from: position)
            for index in distance.indices where from[index] <= distance[index] && from[index] != .infinity {
                distance[index] = from[index]
                song[index] = Int32(position)
            }
        }

        /// Finds again the nearest song among `set` (in order) for every track whose
        /// nearest was one of `removed`; the other tracks' nearest is still in the set.
        mutating func remove(_ removed: [Int32], keeping set: [Int], space: any SoundSpace) {
            guard !distance.isEmpty else { return }
            if set.isEmpty {
                distance = []
                song = []
                return
            }
            for index in distance.indices where song[index] >= 0 && removed.contains(song[index]) {
                let nearest = space.nearest(to: index, among: set)
                distance[index] = nearest?.distance ?? .infinity
                song[index] = nearest.map { Int32($0.position) } ?? -1
            }
        }
    }

    /// The scores of every track of `space` against `liked` and `disliked` (positions,
    /// newest last; only the last ``memory`` of each count).
    package init(key: Key, space: any SoundSpace, liked: [Int], disliked: [Int]) {
        self.key = key
        follow(space: space, liked: liked, disliked: disliked)
    }

    /// Takes in new lists of liked and disliked songs (positions, newest last), by the songs
    /// that joined and left them; starts over when `key` names another library or table.
    package mutating func update(key: Key, space: any SoundSpace, liked: [Int], disliked: [Int]) {
        if key.generation != self.key.generation || key.analysed != self.key.analysed {
            self.liked = []
            self.disliked = []
            toLiked = Nearest()
            toDisliked = Nearest()
        }
        self.key = key
        follow(space: space, liked: liked, disliked: disliked)
    }

    private mutating func follow(space: any SoundSpace, liked: [Int], disliked: [Int]) {
        let liked = Array(liked.suffix(Self.memory).filter { space.isAnalysed($0) })
        let disliked = Array(disliked.suffix(Self.memory).filter { space.isAnalysed($0) })
        Self.follow(&toLiked, from: self.liked, to: liked, space: space)
        Self.follow(&toDisliked, from: self.disliked, to: disliked, space: space)
        self.liked = liked
        self.disliked = disliked
    }

    /// Moves `nearest` from set `old` to set `new`: removals first (looked up again among
    /// what stays and what joins), then each song that joined, in order. Ties go to the song
    /// later in the list, so this is exact only while the songs that stay keep their order
    /// ahead of those that join; when they do not (a remembered song liked again moves to the
    /// end, or an older song comes back into the memory's window) every distance is taken
    /// again.
    private static func follow(_ nearest: inout Nearest, from old: [Int], to new: [Int], space: any SoundSpace) {
        let newSet = Set(new), oldSet = Set(old)
        let staying = old.filter { newSet.contains($0) }
        guard new.elementsEqual(staying + new.filter { !oldSet.contains($0) }) else {
            nearest = Nearest()
            for position in new { nearest.add(position, space: space) }
            return
        }
        // Usually one song or none: a short array is the quickest to look through per track.
        let removed = old.filter { !newSet.contains($0) }.map(Int32.init)
        if !removed.isEmpty { nearest.remove(removed, keeping: new, space: space) }
        for position in new where !oldSet.contains(position) { nearest.add(position, space: space) }
    }

    /// The sound's share of the score of the track at `position`.
    package func part(at position: Int) -> Double {
        if toLiked.isEmpty, toDisliked.isEmpty { return 0 }
        var near = toLiked.isEmpty ? Self.typicalDistance : toLiked.distance[position]
        var far = toDisliked.isEmpty ? Self.typicalDistance : toDisliked.distance[position]
        // A track not measured is at no distance from anything: it scores 0.
        guard near.isFinite || far.isFinite else { return 0 }
        if near == .infinity { near = Self.typicalDistance }
        if far == .infinity { far = Self.typicalDistance }
        let score = Self.soundGain * Double(far - near)
        return min(max(score, -Self.cap), Self.cap)
    }

    /// The liked song that the track at `position` sounds closest to, if any.
    package func nearestLikedSong(to position: Int) -> Int? {
        guard !toLiked.isEmpty, toLiked.song[position] >= 0 else { return nil }
        return Int(toLiked.song[position])
    }
}
