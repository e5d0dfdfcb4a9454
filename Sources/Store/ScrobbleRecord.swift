import Foundation
import GRDB

/// A scrobble waiting for its service (`scrobble_outbox`): a listen or a like, kept until
/// ListenBrainz or Last.fm has taken it, so none is lost offline, to a `kill -9` or a full
/// disk. The store keeps the service's and the kind's names as they were written; the
/// scrobbler reads them back and skips a row it does not know.
public struct ScrobbleRecord: Sendable, Equatable {
    /// Delivery order (AUTOINCREMENT never reuses one); nil before it is stored.
    public var id: Int64?
    /// `listenbrainz` or `lastfm`.
    public var service: String
    /// `listen`, `love` or `unlove`.
    public var kind: String
    /// The artist.
    public var artist: String
    /// The title.
    public var title: String
    /// The album, or empty.
    public var album: String
    /// Length in seconds (0 when unknown).
    public var duration: Double
    /// When the song started, in Unix seconds.
    public var startedAt: Int64
    /// When the row was made.
    public var createdAt: Date

    /// Creates a row; the id is assigned when it is stored.
    public init(service: String, kind: String, artist: String, title: String, album: String, duration: Double,
                startedAt: Int64, createdAt: Date = Date()) {
        self.service = service
        self.kind = kind
        self.artist = artist
        self.title = title
        self.album = album
        self.duration = duration
        self.startedAt = startedAt
        self.createdAt = createdAt
    }

    /// The table.
    public static let databaseTableName = "scrobble_outbox"
}

extension MhzDatabase {
    /// Appends a scrobble to the outbox; its row id.
    public func enqueueScrobble(_ record: ScrobbleRecord) throws(StoreError) -> Int64 {
        var id: Int64 = 0
        try write { db in
            try db.execute(sql: """
                INSERT INTO scrobble_outbox(service, kind, artist, title, album, duration, started_at, created_at)
                VALUES(?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [record.service, record.kind, record.artist, record.title, record.album,
                                 record.duration, record.startedAt, DatabaseTimestamp.text(for: record.createdAt)])
            id = db.lastInsertedRowID
        }
        return id
    }

    /// The scrobbles waiting for `service` (every service's when nil), oldest first.
    public func pendingScrobbles(service: String? = nil) throws(StoreError) -> [ScrobbleRecord] {
        try read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM scrobble_outbox"
                + (service == nil ? "" : " WHERE service = ?") + " ORDER BY id",
                arguments: service.map { [$0] } ?? [])
            return rows.map { row in
                var record = ScrobbleRecord(
                    service: row["service"], kind: row["kind"], artist: row["artist"], title: row["title"],
                    album: row["album"], duration: row["duration"], startedAt: row["started_at"],
                    createdAt: DatabaseTimestamp.date(from: row["created_at"]) ?? Date(timeIntervalSince1970: 0))
                record.id = row["id"]
                return record
            }
        }
    }

    /// Forgets scrobbles their service took (or refused for good).
    public func removeScrobbles(ids: [Int64]) throws(StoreError) {
        guard !ids.isEmpty else { return }
        try write { db in
            try db.execute(sql: "DELETE FROM scrobble_outbox WHERE id IN (\(ids.map { _ in "?" }.joined(separator: ",")))",
                           arguments: StatementArguments(ids))
        }
    }
}
