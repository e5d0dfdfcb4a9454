import Foundation
import MusicLibrary
import RadioAPI

/// Everything the station has learned about one listener: red hearts, trashed songs, a
/// score per song and per artist, album and genre, and the songs heard most recently.
///
/// The learning rules (``apply(_:to:)``): a trashed song is never offered again (and is no
/// longer liked), and its artist, album and genre are marked as said no to; a like raises
/// the song's artist, album and genre; a skip lowers the song, its artist and a little its
/// album and genre; a natural end is mild approval. ``score(of:)`` turns the scores into
/// the weight ``Recommender`` draws with. docs/ARCHITECTURE.md ("How the station chooses")
/// explains how the numbers play together.
package struct ListenerProfile: Sendable, Equatable {
    /// What a score is attached to besides single songs.
    package typealias Facet = TrackFacet

    /// How much each report moves the scores (a weight is `e^score`).
    ///
    /// Decisive: one like makes the artist's other songs about 4 times likelier, two about
    /// 10 times; one skip makes the artist's songs about 3 times less likely. A trash
    /// teaches the genre as much as the artist: a listener who trashes a genre trashes
    /// songs of many artists, and the genre is what they share.
    ///
    /// Stored facet scores stay within ±``storedLimit`` (``artistStoredLimit`` for
    /// artists): later reports overturn old ones quickly, so a listener whose taste changes
    /// is heard within a few songs, not after as many reports as it once made. What a stored
    /// score contributes saturates (`cap·tanh(s/cap)` per facet, ``songCap`` …
    /// ``genreCap``).
    package enum Rules {
        /// The most a song's own score contributes, either way.
        static let songCap = 2.0
        /// The most an artist's score contributes.
        static let artistCap = 3.0
        /// The most an album's score contributes.
        static let albumCap = 1.0
        /// The most a genre's score contributes.
        static let genreCap = 2.0
        /// A stored album or genre score stays within ± this.
        static let storedLimit = 4.0
        /// A stored artist score stays within ± this.
        static let artistStoredLimit = 5.0
        /// Added to a song's score while it carries the listener's red heart.
        static let likedSong = 1.0
        /// A like's lesson for the song's artist.
        static let likeArtist = 1.6
        /// A like's lesson for the song's album.
        static let likeAlbum = 0.6
        /// A like's lesson for the song's genre.
        static let likeGenre = 0.3
        /// A skip's lesson for the song itself.
        static let skipSong = -1.5
        /// A skip's lesson for the song's artist.
        static let skipArtist = -1.2
        /// A skip's lesson for the song's album.
        static let skipAlbum = -0.4
        /// A skip's lesson for the song's genre: a little, one song is not its genre.
        static let skipGenre = -0.2
        /// A trash's lesson for the song's artist (the song itself never comes back).
        static let trashArtist = -1.5
        /// A trash's lesson for the song's album.
        static let trashAlbum = -0.6
        /// A trash's lesson for the song's genre.
        static let trashGenre = -1.0
        /// A natural end's lesson for the song: mild approval.
        static let endSong = 0.2
        /// A natural end's lesson for the song's artist.
        static let endArtist = 0.3
        /// A natural end's lesson for the song's album.
        static let endAlbum = 0.1
        /// A natural end's lesson for the song's genre.
        static let endGenre = 0.1
        /// The sum of a song's own and facet parts stays within ± this.
        static let scoreLimit = 6.0
        /// How many recently heard songs are remembered.
        static let recentCapacity = 50
    }

    /// Liked song ids, oldest like first (the red-heart channel's order).
    package private(set) var liked: [String] = []
    private var likedSet: Set<String> = []
    /// Trashed song ids.
    package private(set) var trashed: Set<String> = []
    /// Learned score per song id.
    package private(set) var songScores: [String: Double] = [:]
    /// Learned score per facet value (``LibraryTrack/facetValue(_:)``).
    package private(set) var affinities: [Facet: [String: Double]] = [:]
    /// Songs reported on recently, oldest first, each once.
    package private(set) var recent: [String] = []

    /// An empty profile: a listener never seen.
    package init() {}

    /// Rebuilds a stored profile.
    package init(liked: [String], trashed: Set<String>, songScores: [String: Double],
         affinities: [Facet: [String: Double]], recent: [String]) {
        self.liked = liked
        likedSet = Set(liked)
        self.trashed = trashed
        self.songScores = songScores
        self.affinities = affinities
        self.recent = recent
    }

    /// Whether `sid` carries this listener's red heart.
    package func likes(_ sid: String) -> Bool { likedSet.contains(sid) }

    /// The learned score of a track: its own, its red heart, and its artist's, album's and
    /// genre's, each saturating at its cap, the sum clamped to ±``Rules/scoreLimit`` (sound
    /// and the household are added by ``Recommender``).
    ///
    /// The reference for ``ListenerWeights``, which adds the same terms in the same order
    /// from precomputed parts, so both give bit-identical weights.
    package func score(of track: LibraryTrack) -> Double {
        var total = songPart(track.sid)
        for facet in Facet.allCases {
            guard let value = track.facetValue(facet), let stored = affinities[facet]?[value] else { continue }
            total += Self.facetPart(stored, facet)
        }
        return Self.clamped(total)
    }

    /// The song's own share of its score: its saturated score, plus the red heart's bonus.
    package func songPart(_ sid: String) -> Double {
        var total = Self.saturated(songScores[sid] ?? 0, Rules.songCap)
        if likedSet.contains(sid) { total += Rules.likedSong }
        return total
    }

    /// A facet value's share of a score, from its stored score, saturating at the facet's cap.
    package static func facetPart(_ stored: Double, _ facet: Facet) -> Double {
        let cap = switch facet {
        case .artist: Rules.artistCap
        case .album: Rules.albumCap
        case .genre: Rules.genreCap
        }
        return saturated(stored, cap)
    }

    /// A score sum limited to ±``Rules/scoreLimit``.
    package static func clamped(_ total: Double) -> Double {
        min(max(total, -Rules.scoreLimit), Rules.scoreLimit)
    }

    private static func saturated(_ value: Double, _ cap: Double) -> Double { cap * tanh(value / cap) }

    /// Learns from one report about `track` and returns what changed, for the database.
    package mutating func apply(_ type: ReportType, to track: LibraryTrack) -> ProfileChange {
        var change = ProfileChange(sid: track.sid)
        func move(_ facet: Facet, _ delta: Double) {
            guard let value = track.facetValue(facet) else { return }
            let limit = facet == .artist ? Rules.artistStoredLimit : Rules.storedLimit
            let moved = min(max((affinities[facet]?[value] ?? 0) + delta, -limit), limit)
            affinities[facet, default: [:]][value] = moved
            change.facets.append(.init(facet: facet, value: value, score: moved))
        }
        func unlike() {
            liked.removeAll { $0 == track.sid }
            likedSet.remove(track.sid)
            move(.artist, -Rules.likeArtist)
            move(.album, -Rules.likeAlbum)
            move(.genre, -Rules.likeGenre)
        }
        switch type {
        case .rate where !likedSet.contains(track.sid):
            liked.append(track.sid)
            likedSet.insert(track.sid)
            move(.artist, Rules.likeArtist)
            move(.album, Rules.likeAlbum)
            move(.genre, Rules.likeGenre)
        case .unrate where likedSet.contains(track.sid):
            // Taking the heart back takes back what it taught.
            unlike()
        case .skip:
            songScores[track.sid, default: 0] += Rules.skipSong
            move(.artist, Rules.skipArtist)
            move(.album, Rules.skipAlbum)
            move(.genre, Rules.skipGenre)
        case .ban:
            // A trash ends a like: the song leaves the red-heart channel and the liked
            // songs, and what the like taught is taken back, as an unrate would.
            if likedSet.contains(track.sid) { unlike() }
            trashed.insert(track.sid)
            move(.artist, Rules.trashArtist)
            move(.album, Rules.trashAlbum)
            move(.genre, Rules.trashGenre)
        case .end:
            songScores[track.sid, default: 0] += Rules.endSong
            move(.artist, Rules.endArtist)
            move(.album, Rules.endAlbum)
            move(.genre, Rules.endGenre)
        case .rate, .unrate, .new, .playing:
            break
        }
        // Songs played (ended, skipped, trashed, playing when the queue ran out) are the
        // recent ones; a heart given or taken says nothing about what was heard.
        switch type {
        case .end, .skip, .ban, .playing:
            remember(track.sid)
            change.recent = recent
        case .new, .rate, .unrate:
            break
        }
        change.liked = likedSet.contains(track.sid)
        change.trashed = trashed.contains(track.sid)
        change.songScore = songScores[track.sid] ?? 0
        return change
    }

    /// Appends a song to the recent list, moving it to the end when already there.
    private mutating func remember(_ sid: String) {
        recent.removeAll { $0 == sid }
        recent.append(sid)
        if recent.count > Rules.recentCapacity { recent.removeFirst(recent.count - Rules.recentCapacity) }
    }
}
