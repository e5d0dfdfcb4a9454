import Foundation

/// How a song left the radio, as the history keeps it.
public enum ListenOutcome: String, Sendable, Equatable, CaseIterable {
    /// It played to its end (or stopped by itself, its stream failing past recovery).
    case ended
    /// The listener skipped it, or moved on to another channel.
    case skipped
    /// The listener trashed it.
    case trashed
    /// mhz quit while it played (also what a song still open after a crash reads as).
    case quit
}

/// One song of the history, as front ends show it.
public struct ListenEntry: Sendable, Equatable {
    /// The station's song id.
    public var sid: String
    /// Title.
    public var title: String
    /// Artist.
    public var artist: String
    /// Album.
    public var album: String
    /// The channel it played on.
    public var channel: String
    /// When its first audio played.
    public var startedAt: Date
    /// Seconds listened.
    public var listened: Double
    /// How it left.
    public var outcome: ListenOutcome
    /// Whether it is liked: as it left, or as the history view last liked or unliked it.
    public var liked: Bool
    /// Where its audio was (what a download of it fetches); empty when not kept.
    public var url: String
    /// Release year, when known.
    public var year: String
    /// Cover art URL, or empty.
    public var picture: String
    /// SHA-256 of the audio file, when the station gave one.
    public var sha256: String?
    /// Whether it played from another station than the radio's now: its sid means nothing
    /// to this one, so no report can be made about it.
    public var otherStation: Bool

    /// Creates an entry.
    public init(sid: String, title: String, artist: String, album: String, channel: String, startedAt: Date,
                listened: Double, outcome: ListenOutcome, liked: Bool, url: String = "", year: String = "",
                picture: String = "", sha256: String? = nil, otherStation: Bool = false) {
        self.sid = sid
        self.title = title
        self.artist = artist
        self.album = album
        self.channel = channel
        self.startedAt = startedAt
        self.listened = listened
        self.outcome = outcome
        self.liked = liked
        self.url = url
        self.year = year
        self.picture = picture
        self.sha256 = sha256
        self.otherStation = otherStation
    }

    /// The song as a track, to report, narrate or download it (it plays on `channel`).
    public var track: Track {
        Track(sid: sid, title: title, artist: artist, album: album, year: year, liked: liked, url: url,
              picture: picture, sha256: sha256, channel: channel)
    }
}

/// Where the history of songs started is kept. The real one is mhz's database, through the
/// composition root's adapter (`RadioHistory`), which adds the station.
public protocol ListeningLog: Sendable {
    /// Stores a song that started at `date` and returns its key; it reads as `quit` until
    /// ``left(key:listened:outcome:liked:)`` says otherwise.
    func began(_ track: Track, channel: String, at date: Date) throws(StorageFailure) -> Int64
    /// Records how a song left.
    func left(key: Int64, listened: Double, outcome: ListenOutcome, liked: Bool) throws(StorageFailure)
    /// The songs started, newest first, at most `limit` of them (every one when nil).
    func recent(limit: Int?) throws(StorageFailure) -> [ListenEntry]
    /// Marks every row of song `sid` (of this station) liked or not (the history view liked
    /// or unliked a song that is no longer playing).
    func markLiked(sid: String, _ liked: Bool) throws(StorageFailure)
}
