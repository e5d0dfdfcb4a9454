import Foundation
import GRDB

/// mhz's own SQLite database (`mhz.sqlite` in the data dir): settings, playback positions
/// and, later, history, the report outbox and downloads.
///
/// Opened as one GRDB `DatabaseQueue` connection in WAL mode: a kill -9 loses at most the
/// transaction in flight, and another process (a test, `mhz login`) reads and writes beside
/// it. One connection is enough: the radio's accesses are few and short, and a pool's
/// extra reader connections would only cost memory. Every method is synchronous and
/// thread-safe; callers on async contexts accept the (sub-millisecond) blocking.
public final class MhzDatabase: Sendable {
    private let writer: any DatabaseWriter

    /// Opens (creating if needed) the database at `path` and migrates it.
    public init(path: URL) throws(StoreError) {
        do {
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            var config = Configuration()
            config.busyMode = .timeout(5)
            config.journalMode = .wal
            // In WAL mode NORMAL syncs at checkpoints, not at every commit: "WAL mode is
            // always consistent with synchronous=NORMAL" and a commit survives the process
            // being killed (it is in the WAL file), only a power cut may roll back the last
            // ones (sqlite.org/pragma.html#pragma_synchronous). A position save or a
            // download's change of state then costs no disk flush.
            config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            writer = try DatabaseQueue(path: path.path, configuration: config)
            // A file cut short or overwritten may open and fail only later, on some page:
            // quick_check reads every page once (milliseconds for mhz's few tables).
            let check = try writer.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
            guard check == ["ok"] else {
                throw StoreError.damaged(path: path.path, reason: check.prefix(3).joined(separator: "; "))
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw Self.isDamage(error) ? .damaged(path: path.path, reason: Self.words(error))
                                       : .cannotOpen(path: path.path, reason: Self.words(error))
        }
        do {
            try migrate()
        } catch .migrationFailed(let reason) where reason.hasPrefix(Self.damageMark) {
            throw .damaged(path: path.path, reason: String(reason.dropFirst(Self.damageMark.count)))
        }
    }

    /// Moves a damaged database file, with its `-wal` and `-shm` companions, aside to
    /// `NAME.damaged-STAMP` (kept, for whoever wants to look), so a new one can be made
    /// at `path`. Returns where the main file went.
    public static func setAside(path: URL, stamp: Int) throws(StoreError) -> URL {
        let kept = URL(fileURLWithPath: path.path + ".damaged-\(stamp)")
        for suffix in ["", "-wal", "-shm"] {
            let from = path.path + suffix
            guard FileManager.default.fileExists(atPath: from) else { continue }
            guard rename(from, kept.path + suffix) == 0 else {
                throw .cannotOpen(path: from, reason: "cannot move it aside: \(String(cString: strerror(errno)))")
            }
        }
        return kept
    }

    /// Marks a migration's failure as damage to the file, so the initializer can tell it.
    private static let damageMark = "damaged: "

    /// SQLite's words for a file that is not a database, or a corrupt one.
    private static func isDamage(_ error: any Error) -> Bool {
        guard let db = error as? DatabaseError else { return false }
        return db.resultCode == .SQLITE_CORRUPT || db.resultCode == .SQLITE_NOTADB
    }

    /// An in-memory database, for tests.
    public init() throws(StoreError) {
        do {
            writer = try DatabaseQueue()
        } catch {
            throw .cannotOpen(path: ":memory:", reason: Self.words(error))
        }
        try migrate()
    }

    private func migrate() throws(StoreError) {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-settings-positions") { db in
            try db.create(table: "setting") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
            try db.create(table: PositionRecord.databaseTableName) { t in
                t.primaryKey("sid", .text)
                t.column("channel", .text).notNull()
                t.column("position", .double).notNull()
                t.column("duration", .double).notNull()
                t.column("url", .text).notNull()
                t.column("title", .text).notNull()
                t.column("artist", .text).notNull()
                t.column("saved_at", .datetime).notNull().indexed()
            }
        }
        migrator.registerMigration("v2-report-outbox") { db in
            try db.create(table: OutboxEntry.databaseTableName) { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("type", .text).notNull()
                t.column("channel", .text).notNull()
                t.column("sid", .text).notNull()
                t.column("history", .text)
                t.column("played_time", .double)
                t.column("created_at", .datetime).notNull()
            }
        }
        migrator.registerMigration("v3-position-album") { db in
            try db.alter(table: PositionRecord.databaseTableName) { t in
                t.add(column: "album", .text).notNull().defaults(to: "")
            }
        }
        migrator.registerMigration("v4-outbox-optional-sid") { db in
            // SQLite cannot relax NOT NULL in place: the table is rebuilt, and the empty sid
            // the first version wrote for "no song" becomes NULL.
            try db.execute(sql: """
                CREATE TABLE report_outbox_new (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    type TEXT NOT NULL,
                    channel TEXT NOT NULL,
                    sid TEXT,
                    history TEXT,
                    played_time DOUBLE,
                    created_at DATETIME NOT NULL);
                INSERT INTO report_outbox_new (id, type, channel, sid, history, played_time, created_at)
                    SELECT id, type, channel, NULLIF(sid, ''), history, played_time, created_at FROM report_outbox;
                DROP TABLE report_outbox;
                ALTER TABLE report_outbox_new RENAME TO report_outbox;
                """)
        }
        migrator.registerMigration("v5-downloads") { db in
            try db.create(table: DownloadRecord.databaseTableName) { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("kind", .text).notNull()
                t.column("url", .text).notNull()
                t.column("state", .text).notNull().indexed()
                t.column("reason", .text)
                t.column("title", .text).notNull()
                t.column("artist", .text).notNull()
                t.column("album", .text).notNull()
                t.column("year", .text).notNull()
                t.column("cover_url", .text)
                t.column("sid", .text)
                t.column("channel", .text)
                t.column("station", .text)
                t.column("sha256", .text)
                t.column("path", .text).notNull()
                t.column("bytes", .integer).notNull()
                t.column("total", .integer)
                t.column("created_at", .datetime).notNull()
                t.column("updated_at", .datetime).notNull()
            }
        }
        migrator.registerMigration("v6-trashed-songs") { db in
            try db.create(table: "trashed_song") { t in
                t.column("station", .text).notNull()
                t.column("sid", .text).notNull()
                t.column("created_at", .datetime).notNull()
                t.primaryKey(["station", "sid"])
            }
        }
        migrator.registerMigration("v7-hls-downloads") { db in
            // What an HLS task asks for (the variant, the audio language, a live recording's
            // length) travels with the task; how far it got is written apart, per segment.
            try db.alter(table: DownloadRecord.databaseTableName) { t in
                t.add(column: "quality", .text)
                t.add(column: "audio_language", .text)
                t.add(column: "record_seconds", .double)
            }
            try db.create(table: HLSProgress.databaseTableName) { t in
                t.column("download_id", .integer).primaryKey()
                    .references(DownloadRecord.databaseTableName, onDelete: .cascade)
                t.column("playlist_url", .text).notNull()
                t.column("next_sequence", .integer).notNull()
                t.column("segments_done", .integer).notNull()
                t.column("bytes", .integer).notNull()
                t.column("recorded_seconds", .double).notNull()
                t.column("updated_at", .datetime).notNull()
            }
        }
        migrator.registerMigration("v8-hls-period-starts") { db in
            // Where each discontinuity's period starts in the partial file, for the repair
            // that makes the finished file one stream.
            try db.alter(table: HLSProgress.databaseTableName) { t in
                t.add(column: "period_starts", .text).notNull().defaults(to: "[]")
            }
        }
        migrator.registerMigration("v11-scrobble-outbox") { db in
            // Listens and likes on their way to ListenBrainz and Last.fm, one row per service.
            try db.create(table: ScrobbleRecord.databaseTableName) { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("service", .text).notNull().indexed()
                t.column("kind", .text).notNull()
                t.column("artist", .text).notNull()
                t.column("title", .text).notNull()
                t.column("album", .text).notNull()
                t.column("duration", .double).notNull()
                t.column("started_at", .integer).notNull()
                t.column("created_at", .datetime).notNull()
            }
        }
        migrator.registerMigration("v10-lyric-offsets") { db in
            // The listener's nudge of a song's lyric timing, per station and song.
            try db.create(table: LyricOffsetRecord.databaseTableName) { t in
                t.column("station", .text).notNull()
                t.column("sid", .text).notNull()
                t.column("offset_ms", .integer).notNull()
                t.column("updated_at", .datetime).notNull()
                t.primaryKey(["station", "sid"])
            }
        }
        migrator.registerMigration("v9-history") { db in
            // Every song the radio started (see ListenRecord), newest first when read.
            // Registered after v11, which shipped first: the migrator applies what a file
            // lacks by name, so a database already at v11 still gains this table.
            try db.create(table: ListenRecord.databaseTableName) { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("station", .text).notNull()
                t.column("channel", .text).notNull()
                t.column("sid", .text).notNull()
                t.column("title", .text).notNull()
                t.column("artist", .text).notNull()
                t.column("album", .text).notNull()
                t.column("started_at", .datetime).notNull().indexed()
                t.column("listened", .double).notNull()
                t.column("outcome", .text).notNull()
                t.column("liked", .boolean).notNull()
                // What a download of the song needs, so the history view can download it.
                t.column("url", .text).notNull().defaults(to: "")
                t.column("year", .text).notNull().defaults(to: "")
                t.column("picture", .text).notNull().defaults(to: "")
                t.column("sha256", .text)
            }
        }
        migrator.registerMigration("v12-listen-song") { db in
            // A song's fields (title, artist, …) become one JSON column: see ListenRecord.
            try ListenRecord.keepSongAsJSON(db)
        }
        do {
            let pending = try writer.read { db in try !migrator.hasCompletedMigrations(db) }
            try migrator.migrate(writer)
            // Each migration is a transaction whose pages the WAL keeps until a checkpoint
            // (at 1000 pages): a new database's would otherwise hold some fifty pages of
            // schema, which a nearly full disk or a file-size limit must then find room for
            // before the first download's state can be written.
            if pending { try writer.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) } }
        } catch {
            throw .migrationFailed((Self.isDamage(error) ? Self.damageMark : "") + Self.words(error))
        }
    }

    // MARK: - Settings

    /// A stored setting (last channel, volume, …), or `nil`.
    public func setting(_ key: String) throws(StoreError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) }
    }

    /// Stores a setting; `nil` removes it.
    public func setSetting(_ key: String, _ value: String?) throws(StoreError) {
        try write { db in
            if let value {
                try db.execute(sql: "INSERT INTO setting(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                               arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key])
            }
        }
    }

    // MARK: - Positions

    /// Saves (replacing) the position of a song.
    public func savePosition(_ position: PositionRecord) throws(StoreError) {
        try write { db in try position.save(db) }
    }

    /// The most recently saved position, if any.
    public func lastPosition() throws(StoreError) -> PositionRecord? {
        try read { db in try PositionRecord.order(Column("saved_at").desc).fetchOne(db) }
    }

    /// The saved position of one song, if any.
    public func position(sid: String) throws(StoreError) -> PositionRecord? {
        try read { db in try PositionRecord.fetchOne(db, key: sid) }
    }

    // MARK: - Report outbox

    /// Appends a report to the outbox and returns it with its id (its place in line).
    public func enqueueReport(_ entry: OutboxEntry) throws(StoreError) -> OutboxEntry {
        var entry = entry
        try write { db in try entry.insert(db) }
        return entry
    }

    /// The waiting reports, oldest first.
    public func pendingReports() throws(StoreError) -> [OutboxEntry] {
        try read { db in try OutboxEntry.order(Column("id")).fetchAll(db) }
    }

    /// Forgets a report the station acknowledged (or refused for good).
    public func removeReport(id: Int64) throws(StoreError) {
        try write { db in _ = try OutboxEntry.deleteOne(db, key: id) }
    }

    // MARK: - Downloads

    /// Stores a new download and returns it with its id.
    public func insertDownload(_ record: DownloadRecord) throws(StoreError) -> DownloadRecord {
        var record = record
        try write { db in try record.insert(db) }
        return record
    }

    /// Saves a download's changed fields (by id).
    public func updateDownload(_ record: DownloadRecord) throws(StoreError) {
        try write { db in try record.update(db) }
    }

    /// Every download this mhz can read, oldest first. A row it cannot read (a state a newer
    /// mhz wrote, a column edited by hand) is left as it is and passed over, so that one row
    /// never keeps every other download from starting or being listed.
    public func downloads() throws(StoreError) -> [DownloadRecord] {
        try read { db in
            try Row.fetchAll(db, DownloadRecord.order(Column("id"))).compactMap { try? DownloadRecord(row: $0) }
        }
    }

    /// One download, if it exists.
    public func download(id: Int64) throws(StoreError) -> DownloadRecord? {
        try read { db in try DownloadRecord.fetchOne(db, key: id) }
    }

    /// Forgets a download (its files are the caller's business).
    public func deleteDownload(id: Int64) throws(StoreError) {
        try write { db in _ = try DownloadRecord.deleteOne(db, key: id) }
    }

    /// How far an HLS download got, if it started.
    public func hlsProgress(downloadID: Int64) throws(StoreError) -> HLSProgress? {
        try read { db in try HLSProgress.fetchOne(db, key: downloadID) }
    }

    /// Records how far an HLS download got (after each appended segment).
    public func saveHLSProgress(_ progress: HLSProgress) throws(StoreError) {
        try write { db in try progress.save(db) }
    }

    /// Forgets how far an HLS download got: its next attempt starts from the first segment.
    public func deleteHLSProgress(downloadID: Int64) throws(StoreError) {
        try write { db in _ = try HLSProgress.deleteOne(db, key: downloadID) }
    }

    // MARK: - Trashed songs

    /// Remembers that the listener trashed `sid` of `station` (the station's URL, or `embedded`).
    public func markTrashed(station: String, sid: String, at date: Date = Date()) throws(StoreError) {
        try write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO trashed_song(station, sid, created_at) VALUES(?, ?, ?)",
                           arguments: [station, sid, DatabaseTimestamp.text(for: date)])
        }
    }

    /// Every trashed song, as `(station, sid)` pairs.
    public func trashedSongs() throws(StoreError) -> Set<TrashedSong> {
        try read { db in
            Set(try Row.fetchAll(db, sql: "SELECT station, sid FROM trashed_song").map { row in
                TrashedSong(station: row["station"], sid: row["sid"])
            })
        }
    }

    // MARK: - Plumbing

    /// A read, its failure as a ``StoreError`` (for the tables' extensions in other files).
    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do { return try writer.read(body) } catch { throw Self.failure(error) }
    }

    /// A write in one transaction, its failure as a ``StoreError``.
    func write(_ body: (Database) throws -> Void) throws(StoreError) {
        do { try writer.write(body) } catch { throw Self.failure(error) }
    }

    /// A full disk is told apart: the radio says so and writes again later.
    private static func failure(_ error: any Error) -> StoreError {
        if let db = error as? DatabaseError, db.resultCode == .SQLITE_FULL { return .diskFull(words(error)) }
        return .operationFailed(words(error))
    }

    private static func words(_ error: any Error) -> String {
        if let db = error as? DatabaseError { return db.message ?? db.resultCode.description }
        return "\(error)"
    }
}
