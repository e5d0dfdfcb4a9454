import Foundation
import GRDB

/// A row of `listen`: one song the radio started, on which station and channel, when, how
/// long it was listened to, how it left (`ended`, `skipped`, `trashed`, `quit`) and whether
/// it was liked then. Written when the song starts (as `quit`, which is what a song still
/// open after a crash was) and brought up to date when it leaves.
public struct ListenRecord: Codable, Sendable, Equatable, TimestampedRecord, FetchableRecord, MutablePersistableRecord {
    /// The row id, once inserted.
    public var id: Int64?
    /// The station (its URL, or `embedded`).
    public var station: String
    /// The channel it played on.
    public var channel: String
    /// The station's song id.
    public var sid: String
    /// Title.
    public var title: String
    /// Artist.
    public var artist: String
    /// Album.
    public var album: String
    /// When its first audio played.
    public var startedAt: Date
    /// Seconds listened.
    public var listened: Double
    /// How it left: `ended`, `skipped`, `trashed` or `quit`.
    public var outcome: String
    /// Whether it was liked when it left (or as the history view last liked or unliked it).
    public var liked: Bool
    /// Where its audio was; empty when unknown.
    public var url: String
    /// Release year, when known.
    public var year: String
    /// Cover art URL, or empty.
    public var picture: String
    /// SHA-256 of the audio file, when the station gave one.
    public var sha256: String?

    /// Creates a row.
    public init(id: Int64? = nil, station: String, channel: String, sid: String, title: String, artist: String,
                album: String, startedAt: Date, listened: Double = 0, outcome: String = "quit", liked: Bool = false,
                url: String = "", year: String = "", picture: String = "", sha256: String? = nil) {
        self.id = id
        self.station = station
        self.channel = channel
        self.sid = sid
        self.title = title
        self.artist = artist
        self.album = album
        self.startedAt = startedAt
        self.listened = listened
        self.outcome = outcome
        self.liked = liked
        self.url = url
        self.year = year
        self.picture = picture
        self.sha256 = sha256
    }

    /// The table.
    public static let databaseTableName = "listen"

    /// The table's column names, in snake case.
    enum CodingKeys: String, CodingKey {
        case id, station, channel, sid, title, artist, album, startedAt = "started_at", listened, outcome, liked, url, year, picture, sha256
    }

    /// Takes the id SQLite assigned.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension MhzDatabase {
    /// Stores a song that started and returns its row id.
    public func insertListen(_ record: ListenRecord) throws(StoreError) -> Int64 {
        var record = record
        try write { db in try record.insert(db) }
        return record.id ?? 0
    }

    /// Brings a song's row up to date as it leaves (or as it is liked or unliked).
    public func finishListen(id: Int64, listened: Double, outcome: String, liked: Bool) throws(StoreError) {
        try write { db in
            try db.execute(sql: "UPDATE listen SET listened = ?, outcome = ?, liked = ? WHERE id = ?",
                           arguments: [listened, outcome, liked, id])
        }
    }

    /// Marks every row of song `sid` on `station` liked or not.
    public func markListensLiked(station: String, sid: String, liked: Bool) throws(StoreError) {
        try write { db in
            try db.execute(sql: "UPDATE listen SET liked = ? WHERE station = ? AND sid = ?",
                           arguments: [liked, station, sid])
        }
    }

    /// The songs started, newest first, at most `limit` of them (every one when nil).
    public func listens(limit: Int?) throws(StoreError) -> [ListenRecord] {
        try read { db in
            let newest = ListenRecord.order(Column("started_at").desc, Column("id").desc)
            return try (limit.map { newest.limit($0) } ?? newest).fetchAll(db)
        }
    }
}
