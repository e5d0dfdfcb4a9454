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

/// One song of the history, as front ends show it: the song as the radio knew it, and what
/// only the history knows of it.
public struct ListenEntry: Sendable, Equatable {
    /// The song: what the history keeps of it (every field the history does not keep reads
    /// as `Track`'s default). Its `liked` is whether it is liked as it left, or as the
    /// history view last liked or unliked it; its `channel` is the channel it played on, so
    /// it can be reported, narrated or downloaded as it is.
    public var track: Track
    /// When its first audio played.
    public var startedAt: Date
    /// Seconds listened.
    public var listened: Double
    /// How it left.
    public var outcome: ListenOutcome
    /// Whether it played from another station than the radio's now: its sid means nothing
    /// to this one, so no report can be made about it.
    public var otherStation: Bool

    /// Creates an entry of `track`, which played on `channel`.
    public init(track: Track, channel: String, startedAt: Date, listened: Double, outcome: ListenOutcome,
                otherStation: Bool = false) {
        self.track = track
        self.track.channel = channel
        self.startedAt = startedAt
        self.listened = listened
        self.outcome = outcome
        self.otherStation = otherStation
    }

    /// The channel it played on.
    public var channel: String { track.channel ?? "" }
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
