/// What a listener's liked and disliked songs say about every other track's sound: per
/// track position, a score from how close it sounds to the nearest liked song and to the
/// nearest disliked (skipped or trashed) one; and, for the reason shown with a song, which
/// liked song it sounds closest to.
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
/// nearest song closer); a song that leaves costs one pass too (the tracks at exactly its
/// distance may have had it as their nearest) and a look again among the songs that stay at
/// those tracks only. A listener's report therefore costs about two passes of the library's
/// distances, not one per remembered song; a new library or sound table starts over.
///
/// Per track only the two distances are kept (8 bytes; 400 kB per listener at 50 000
/// tracks): which liked song is nearest is asked for five songs a list, and found then among
/// the ``memory`` liked songs.
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
    /// The space the distances were measured in.
    private var space: any SoundSpace
    /// The liked positions compared with, oldest first.
    private var liked: [Int] = []
    /// The disliked positions compared with, oldest first.
    private var disliked: [Int] = []
    /// Per position: the distance to the nearest liked song (empty while none).
    private var toLiked = Nearest()
    /// Per position: the distance to the nearest disliked song (empty while none).
    private var toDisliked = Nearest()

    /// Per position, the distance to the nearest of a set of songs.
    private struct Nearest {
        /// Distances, `.infinity` for a track not measured.
        var distance: [Float] = []

        var isEmpty: Bool { distance.isEmpty }

        /// Brings each track's distance down where `position` is nearer.
        mutating func add(_ position: Int, space: any SoundSpace) {
            if distance.isEmpty { distance = [Float](repeating: .infinity, count: space.trackCount) }
            let from = space.distances(from: position)
            for index in distance.indices where from[index] < distance[index] {
                distance[index] = from[index]
            }
        }

        /// Takes `removed` out of the set, `staying` what remains of it (the songs joining are
        /// added after). A track whose nearest was a removed song lies at exactly that song's
        /// distance (each distance is computed one way, ``SoundSpace/distances(from:)``'s,
        /// and is symmetric); those tracks are looked at again among `staying`, where none
        /// can be nearer than before and one as near ends the search.
        mutating func remove(_ removed: [Int], staying: [Int], space: any SoundSpace) {
            guard !distance.isEmpty else { return }
            if staying.isEmpty {
                distance = []
                return
            }
            var revisit = [Bool](repeating: false, count: distance.count)
            for song in removed {
                let from = space.distances(from: song)
                for index in distance.indices where from[index] == distance[index] && from[index] != .infinity {
                    revisit[index] = true
                }
            }
            for index in revisit.indices where revisit[index] {
                distance[index] = space.nearestDistance(to: index, among: staying, atLeast: distance[index]) ?? .infinity
            }
        }
    }

    /// The scores of every track of `space` against `liked` and `disliked` (positions,
    /// newest last; only the last ``memory`` of each count).
    package init(key: Key, space: any SoundSpace, liked: [Int], disliked: [Int]) {
        self.key = key
        self.space = space
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
        self.space = space
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

    /// Moves `nearest` from set `old` to set `new`: the songs that left first, then each
    /// song that joined. Distances do not depend on the order of the set, so any change of
    /// the lists is followed exactly.
    private static func follow(_ nearest: inout Nearest, from old: [Int], to new: [Int], space: any SoundSpace) {
        let newSet = Set(new), oldSet = Set(old)
        let removed = old.filter { !newSet.contains($0) }
        if !removed.isEmpty { nearest.remove(removed, staying: old.filter { newSet.contains($0) }, space: space) }
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

    /// Adds ``part(at:)`` of each of `positions` to the score in the same slot of `scores`.
    package func addParts(of positions: [Int], to scores: inout [Double]) {
        for slot in scores.indices { scores[slot] += part(at: positions[slot]) }
    }

    /// The liked song that the track at `position` sounds closest to, if any (the newest of
    /// equally close ones).
    package func nearestLikedSong(to position: Int) -> Int? {
        guard !liked.isEmpty else { return nil }
        return space.nearest(to: position, among: liked)?.position
    }
}
