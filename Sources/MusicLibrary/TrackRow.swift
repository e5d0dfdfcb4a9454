import Foundation
import GRDB

/// One row of the scan cache (`track` table): a file's pinned song id, the size and
/// modification time it had when last read, and what TagLib read from it then.
package struct TrackRow: Sendable, Equatable {
    /// The path below the library root.
    package var path: String
    /// The pinned song id; empty until the write transaction assigns one.
    package var sid: String
    /// Whether the file was there at the last scan.
    package var present: Bool
    /// The size when last read.
    package var size: Int64
    /// The modification time (nanoseconds) when last read.
    package var modified: Int64
    /// Whether TagLib could read it (unreadable files are remembered too, so they are not
    /// retried until they change).
    package var readable: Bool
    /// What was read.
    package var metadata: TrackMetadata
    /// The cover's file name in the ``CoverStore``, or empty.
    package var cover: String

    /// Reads a row of `SELECT * FROM track`.
    package init(row: Row) {
        path = row["path"]
        sid = row["sid"]
        present = row["present"]
        size = row["size"]
        modified = row["mtime"]
        readable = row["readable"]
        metadata = TrackMetadata(title: row["title"], artist: row["artist"], album: row["album"], genre: row["genre"],
                                 year: row["year"], duration: row["duration"], bitrate: row["bitrate"], cover: nil)
        cover = row["cover"]
    }

    /// A row for a file just read.
    package init(stamp: FileStamp, sid: String, metadata: TrackMetadata?, cover: String) {
        path = stamp.relativePath
        self.sid = sid
        present = true
        size = stamp.size
        modified = stamp.modified
        readable = metadata != nil
        var kept = metadata ?? TrackMetadata(title: "", artist: "", album: "", genre: "", year: 0, duration: 0,
                                             bitrate: 0, cover: nil)
        // The image bytes live in the cover store, not in the database.
        kept.cover = nil
        self.metadata = kept
        self.cover = cover
    }

    /// Inserts the row, or replaces what was read for its path (the sid stays as stored).
    package func upsert(_ db: Database) throws {
        // A cached statement: a first scan writes thousands of rows in one transaction, and
        // compiling the same SQL for each took as long as reading the file's tags.
        try db.cachedStatement(sql: """
            INSERT INTO track (path, sid, present, size, mtime, readable, title, artist, album, genre, year,
                               duration, bitrate, cover)
            VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(path) DO UPDATE SET present = 1, size = excluded.size, mtime = excluded.mtime,
                readable = excluded.readable, title = excluded.title, artist = excluded.artist,
                album = excluded.album, genre = excluded.genre, year = excluded.year,
                duration = excluded.duration, bitrate = excluded.bitrate, cover = excluded.cover
            """).execute(arguments: [path, sid, size, modified, readable, metadata.title, metadata.artist, metadata.album,
                                     metadata.genre, metadata.year, metadata.duration, metadata.bitrate, cover])
    }
}
