/// A song as the scrobbling services hear of it: what was played and when it started.
public struct PlayedSong: Sendable, Equatable, Codable {
    /// The artist(s), as the station named them.
    public var artist: String
    /// The title.
    public var title: String
    /// The album; empty when the station gave none.
    public var album: String
    /// Length in seconds (0 when unknown).
    public var duration: Double
    /// When it started playing, in Unix seconds (UTC): a listen's timestamp.
    public var startedAt: Int64

    /// Creates a song.
    public init(artist: String, title: String, album: String = "", duration: Double, startedAt: Int64) {
        self.artist = artist
        self.title = title
        self.album = album
        self.duration = duration
        self.startedAt = startedAt
    }

    /// The length in whole units of which a second holds `unitsPerSecond` (1 for Last.fm's
    /// seconds, 1000 for ListenBrainz' milliseconds); `nil` when unknown (0), and when it is
    /// no song's length: not finite, or past what an `Int` holds. A station may announce any
    /// `length`, and the outbox keeps what it was given: a trapping conversion would stop
    /// the courier at every start.
    public func duration(unitsPerSecond: Double) -> Int? {
        guard duration > 0 else { return nil }
        return Int(exactly: (duration * unitsPerSecond).rounded())
    }
}

/// One of the services mhz scrobbles to; the raw value names it in the outbox and on the
/// command line.
public enum ScrobbleService: String, Sendable, Equatable, CaseIterable, Codable {
    /// ListenBrainz (`POST /1/submit-listens`).
    case listenBrainz = "listenbrainz"
    /// Last.fm (the 2.0 web service).
    case lastFM = "lastfm"
}

/// What waits in the outbox for a service: a listen to record, or a like to pass on.
public enum ScrobbleAction: Sendable, Equatable {
    /// The song was listened to (ListenBrainz `single`, Last.fm `track.scrobble`).
    case listen(PlayedSong)
    /// The listener liked it (Last.fm `track.love`).
    case love(PlayedSong)
    /// The listener took the like back (Last.fm `track.unlove`).
    case unlove(PlayedSong)

    /// The song it is about.
    public var song: PlayedSong {
        switch self {
        case .listen(let song), .love(let song), .unlove(let song): song
        }
    }

    /// The action's name in the outbox (`listen`, `love`, `unlove`).
    public var kind: String {
        switch self {
        case .listen: "listen"
        case .love: "love"
        case .unlove: "unlove"
        }
    }

    /// The action of `kind` about `song`; nil for a kind this version does not know.
    public init?(kind: String, song: PlayedSong) {
        switch kind {
        case "listen": self = .listen(song)
        case "love": self = .love(song)
        case "unlove": self = .unlove(song)
        default: return nil
        }
    }
}
