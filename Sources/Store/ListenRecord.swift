import Foundation
import GRDB

/// A row of `listen`: one song the radio started, on which station and channel, when, how
/// long it was listened to, how it left (`ended`, `skipped`, `trashed`, `quit`) and whether
/// it was liked then. Written when the song starts (as `quit`, which is what a song still
/// open after a crash was) and brought up to date when it leaves. The song's own fields are
/// one JSON column (``ListenSong``), so keeping one more of them needs no new column.
public struct ListenRecord: Codable, Sendable, Equatable, TimestampedRecord, FetchableRecord, MutablePersistableRecord {
    /// The row id, once inserted.
    public var id: Int64?
    /// The station (its URL, or `embedded`).
    public var station: String
    /// The channel it played on.
    public var channel: String
    /// The station's song id (a column of its own: the rows of a song are liked by it).
    public var sid: String
    /// When its first audio played.
    public var startedAt: Date
    /// Seconds listened.
    public var listened: Double
    /// How it left: `ended`, `skipped`, `trashed` or `quit`.
    public var outcome: String
    /// Whether it was liked when it left (or as the history view last liked or unliked it).
    public var liked: Bool
    /// The rest of what is kept of the song: title, artist, album, ….
    public var song: ListenSong

    /// Creates a row.
    public init(id: Int64? = nil, station: String, channel: String, sid: String, startedAt: Date,
                listened: Double = 0, outcome: String = "quit", liked: Bool = false, song: ListenSong) {
        self.id = id
        self.station = station
        self.channel = channel
        self.sid = sid
        self.startedAt = startedAt
        self.listened = listened
        self.outcome = outcome
        self.liked = liked
        self.song = song
    }

    /// The table.
    public static let databaseTableName = "listen"

    /// The table's column names, in snake case.
    enum CodingKeys: String, CodingKey {
        case id, station, channel, sid, startedAt = "started_at", listened, outcome, liked, song
    }

    /// Moves a `listen` table of a column per song field (as `v9-history` made it) to one
    /// whose song fields are the JSON `song` column, every row kept as it was: its id, its
    /// station and outcome (whichever they are), and each song field under the key
    /// ``ListenSong`` reads it by. The table is rebuilt, as SQLite changes a table's columns.
    static func keepSongAsJSON(_ db: Database) throws {
        try db.create(table: "listen_song") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("station", .text).notNull()
            t.column("channel", .text).notNull()
            t.column("sid", .text).notNull()
            t.column("started_at", .datetime).notNull()
            t.column("listened", .double).notNull()
            t.column("outcome", .text).notNull()
            t.column("liked", .boolean).notNull()
            t.column("song", .text).notNull()
        }
        // CAST: json_object refuses a BLOB, which a hand-edited row might hold.
        try db.execute(sql: """
            INSERT INTO listen_song (id, station, channel, sid, started_at, listened, outcome, liked, song)
            SELECT id, station, channel, sid, started_at, listened, outcome, liked,
                   json_object('title', CAST(title AS TEXT), 'artist', CAST(artist AS TEXT),
                               'album', CAST(album AS TEXT), 'year', CAST(year AS TEXT),
                               'url', CAST(url AS TEXT), 'picture', CAST(picture AS TEXT),
                               'sha256', CAST(sha256 AS TEXT))
            FROM listen;
            DROP TABLE listen;
            ALTER TABLE listen_song RENAME TO listen;
            CREATE INDEX index_listen_on_started_at ON listen(started_at)
            """)
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
