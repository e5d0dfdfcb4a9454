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
    /// Whether it was liked when it left.
    public var liked: Bool

    /// Creates an entry.
    public init(sid: String, title: String, artist: String, album: String, channel: String, startedAt: Date,
                listened: Double, outcome: ListenOutcome, liked: Bool) {
        self.sid = sid
        self.title = title
        self.artist = artist
        self.album = album
        self.channel = channel
        self.startedAt = startedAt
        self.listened = listened
        self.outcome = outcome
        self.liked = liked
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
}
