import Foundation
import MusicLibrary
import RadioAPI

/// Everything the station has learned about one listener: red hearts, trashed songs, a
/// score per song and per artist, album and genre, and the songs heard most recently.
///
/// The learning rules (``apply(_:to:)``), in the order of the issue that asked for them:
/// a trashed song is never offered again (and is no longer liked); a like raises the
/// song's artist, album and genre;
/// a skip lowers the song, and its artist a little; a natural end is mild approval. Scores
/// add up; ``score(of:)`` turns them into the weight ``Recommender`` draws with.
package struct ListenerProfile: Sendable, Equatable {
    /// What a score is attached to besides single songs.
    package typealias Facet = TrackFacet

    /// How much each report moves the scores (a weight is `e^score`). A like (+0.8 artist,
    /// +0.5 album, +0.25 genre, +0.8 the song itself while liked: a liked song becomes about
    /// eight times likelier, its artist's others over twice as likely) outweighs a few skips
    /// of that artist (−0.25 each); a skip (−0.8) outweighs four natural ends of the song
    /// (+0.2 each).
    ///
    /// Stored scores add up without bound; what they contribute saturates (`cap·tanh(s/cap)`
    /// per facet, ``songCap`` … ``genreCap``), so ten likes of one artist make it likelier
    /// than one like does, but do not turn the personal channel into that artist's channel.
    package enum Rules {
        /// The most a song's own score contributes, either way: the song alone can make
        /// itself about 7 times likelier or less likely, no more.
        static let songCap = 2.0
        /// The most an artist's score contributes.
        static let artistCap = 1.0
        /// The most an album's score contributes.
        static let albumCap = 0.6
        /// The most a genre's score contributes: a genre is broad, so it nudges only.
        static let genreCap = 0.3
        /// Added to a song's score while it carries the listener's red heart.
        static let likedSong = 0.8
        /// A like's lesson for the song's artist.
        static let likeArtist = 0.8
        /// A like's lesson for the song's album.
        static let likeAlbum = 0.5
        /// A like's lesson for the song's genre.
        static let likeGenre = 0.25
        /// A skip's lesson for the song itself.
        static let skipSong = -0.8
        /// A skip's lesson for the song's artist: a little, one song is not the artist.
        static let skipArtist = -0.25
        /// A trash's lesson for the song's artist (the song itself never comes back).
        static let trashArtist = -0.25
        /// A natural end's lesson for the song: mild approval.
        static let endSong = 0.2
        /// A natural end's lesson for the song's artist.
        static let endArtist = 0.1
        /// A natural end's lesson for the song's album.
        static let endAlbum = 0.05
        /// A natural end's lesson for the song's genre.
        static let endGenre = 0.05
        /// Scores beyond this do not make a song likelier still: one artist liked a dozen
        /// times must not crowd out everything else.
        static let scoreLimit = 4.0
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
    /// genre's, each saturating at its cap, the sum clamped to ±``Rules/scoreLimit``.
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
            affinities[facet, default: [:]][value, default: 0] += delta
            change.facets.append(.init(facet: facet, value: value, delta: delta))
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
        case .ban:
            // A trash ends a like: the song leaves the red-heart channel and the liked
            // songs, and what the like taught is taken back, as an unrate would.
            if likedSet.contains(track.sid) { unlike() }
            trashed.insert(track.sid)
            move(.artist, Rules.trashArtist)
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
        if [.end, .skip, .ban, .playing].contains(type) { remember(track.sid) }
        change.liked = likedSet.contains(track.sid)
        change.trashed = trashed.contains(track.sid)
        change.songScore = songScores[track.sid] ?? 0
        change.recent = recent
        return change
    }

    /// Appends a song to the recent list, moving it to the end when already there.
    private mutating func remember(_ sid: String) {
        recent.removeAll { $0 == sid }
        recent.append(sid)
        if recent.count > Rules.recentCapacity { recent.removeFirst(recent.count - Rules.recentCapacity) }
    }
}
