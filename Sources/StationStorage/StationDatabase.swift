import Foundation
import GRDB

/// The station's own SQLite database, shared by its jobs (the library's scan cache, the
/// recommender's profiles, the server's accounts): one file, `station.sqlite` in its data directory: accounts,
/// login tokens, failed-login counts, every listener's feedback and recent songs, the scan
/// cache, and the pinned song and channel ids.
///
/// A GRDB `DatabasePool` in WAL mode, so requests read while a report or a rescan writes,
/// and a second process (`mhz serve --add-user` beside a running station) can add a user
/// at any time. Writers wait up to ``busyTimeout`` for each other rather than failing.
package final class StationDatabase: Sendable {
    /// The file name inside the data directory.
    package static let fileName = "station.sqlite"
    /// How long a writer waits for another connection's write lock.
    package static let busyTimeout: TimeInterval = 10

    /// The connection pool.
    package let pool: DatabasePool
    /// The database file.
    package let path: String

    /// Opens (creating if needed) and migrates the database in `directory`.
    ///
    /// - Throws: ``StorageError`` naming the file when the folder cannot be created or the
    ///   file cannot be opened or migrated.
    package init(directory: URL) throws(StorageError) {
        let file = directory.appendingPathComponent(Self.fileName)
        path = file.path
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // Tokens and password hashes live here: readable by the owner only. SQLite gives
            // the -wal and -shm files the database file's mode, so the file is created with
            // it before SQLite first opens it (an empty file is an empty database).
            if !FileManager.default.fileExists(atPath: file.path) {
                _ = FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600])
            }
            var configuration = Configuration()
            configuration.busyMode = .timeout(Self.busyTimeout)
            configuration.prepareDatabase { db in
                // WAL (the pool's default) with NORMAL sync: durable across a process crash,
                // may lose the last transactions on power loss, which a radio can afford.
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
            pool = try DatabasePool(path: file.path, configuration: configuration)
            try Self.migrator.migrate(pool)
        } catch {
            throw StorageError(path: file.path, reason: Self.reason(error))
        }
        for suffix in ["", "-wal", "-shm"] { chmod(file.path + suffix, 0o600) }
    }

    /// A short reason for a database error: SQLite's result code and message, no SQL.
    package static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return "\(error.resultCode): \(error.message ?? "")"
        }
        if let error = error as? CocoaError { return StorageError.reason(of: error) }
        return String(describing: type(of: error))
    }

    /// The schema, one migration per step; never edit a registered migration, add one.
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);

                -- Scan cache and song-id pins: one row per file ever seen, kept when the file
                -- goes (present = 0) so its sid stays reserved should it come back.
                CREATE TABLE track (
                    path TEXT PRIMARY KEY NOT NULL,
                    sid TEXT NOT NULL UNIQUE,
                    present INTEGER NOT NULL,
                    size INTEGER NOT NULL,
                    mtime INTEGER NOT NULL,
                    readable INTEGER NOT NULL,
                    title TEXT NOT NULL, artist TEXT NOT NULL, album TEXT NOT NULL,
                    genre TEXT NOT NULL, year INTEGER NOT NULL,
                    duration INTEGER NOT NULL, bitrate INTEGER NOT NULL,
                    cover TEXT NOT NULL
                );

                -- Channel-id pins: a genre or decade keeps its channel id forever.
                CREATE TABLE channel_pin (key TEXT PRIMARY KEY NOT NULL, id INTEGER NOT NULL UNIQUE);

                CREATE TABLE user (
                    id INTEGER PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                    email TEXT UNIQUE COLLATE NOCASE,
                    password_hash TEXT NOT NULL,
                    created_at REAL NOT NULL
                );
                CREATE TABLE token (
                    token TEXT PRIMARY KEY NOT NULL,
                    user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    expires_at REAL NOT NULL
                );
                CREATE INDEX token_expiry ON token(expires_at);
                CREATE TABLE login_failure (
                    name TEXT PRIMARY KEY NOT NULL COLLATE NOCASE,
                    count INTEGER NOT NULL,
                    last_at REAL NOT NULL
                );

                -- Feedback, per listener ("anonymous" or "user:<id>").
                CREATE TABLE song_mark (
                    listener TEXT NOT NULL, sid TEXT NOT NULL,
                    liked INTEGER NOT NULL DEFAULT 0, liked_at REAL NOT NULL DEFAULT 0,
                    trashed INTEGER NOT NULL DEFAULT 0, score REAL NOT NULL DEFAULT 0,
                    PRIMARY KEY (listener, sid)
                );
                CREATE TABLE affinity (
                    listener TEXT NOT NULL, facet TEXT NOT NULL, value TEXT NOT NULL,
                    score REAL NOT NULL,
                    PRIMARY KEY (listener, facet, value)
                );
                CREATE TABLE listener (key TEXT PRIMARY KEY NOT NULL, recent TEXT NOT NULL);
                """)
        }
        // Failed logins expire (AccountStore.failureMemory): found by age.
        migrator.registerMigration("v2") { db in
            try db.execute(sql: "CREATE INDEX login_failure_age ON login_failure(last_at)")
        }
        // Web-family sessions: the `ck` check code a web login hands out with its token,
        // which its logout must present (NULL for app-family tokens).
        migrator.registerMigration("v3") { db in
            try db.execute(sql: "ALTER TABLE token ADD COLUMN check_code TEXT")
        }
        // Tokens are found by their user and then compared in constant time, never looked
        // up by their value (a B-tree search on a secret stops at its first differing byte).
        migrator.registerMigration("v4") { db in
            try db.execute(sql: "CREATE INDEX token_user ON token(user_id)")
        }
        // A trash ends a like: songs liked and later trashed before the station knew that
        // are liked no more (what the like taught the facet scores stays).
        migrator.registerMigration("v5") { db in
            try db.execute(sql: "UPDATE song_mark SET liked = 0 WHERE liked = 1 AND trashed = 1")
        }
        // The sound of each file, measured once (SoundFeatures), by the file's identity in
        // the scan cache (path, size, mtime) and the analysis' version: `features` holds
        // little-endian Float32s, or is NULL with `failure` saying why the file could not
        // be read. A row whose file changed, went, or was measured by another version is
        // measured again or removed.
        migrator.registerMigration("v6") { db in
            try db.execute(sql: """
                CREATE TABLE sound (
                    path TEXT PRIMARY KEY NOT NULL,
                    size INTEGER NOT NULL,
                    mtime INTEGER NOT NULL,
                    version INTEGER NOT NULL,
                    features BLOB,
                    failure TEXT,
                    seconds REAL NOT NULL
                )
                """)
        }
        // Each file's loudness (SoundFeatures' LoudnessMeter), measured in the same pass as
        // its sound: integrated loudness in LUFS and true peak in dBTP, NULL for a silent
        // file or one not measured; `loudness_version` the meter's version that measured
        // it, 0 for rows written before it (or where libebur128 was missing), which the
        // analysis measures again while keeping their features.
        migrator.registerMigration("v7") { db in
            try db.execute(sql: "ALTER TABLE sound ADD COLUMN loudness REAL")
            try db.execute(sql: "ALTER TABLE sound ADD COLUMN true_peak REAL")
            try db.execute(sql: "ALTER TABLE sound ADD COLUMN loudness_version INTEGER NOT NULL DEFAULT 0")
        }
        // The feedback tables keyed by their primary key alone (WITHOUT ROWID): a report
        // writes one row in each of three of them, and a rowid table with a text key is two
        // B-trees (the rows and the key's index), so a report's transaction touched six
        // pages where three do. A report's statements in a loop took 54 µs of CPU per
        // transaction before, 43 µs after. (A row change of such a table is not reported to
        // GRDB's transaction observers; nothing here observes them.)
        migrator.registerMigration("v8") { db in
            try db.execute(sql: """
                CREATE TABLE song_mark_v8 (
                    listener TEXT NOT NULL, sid TEXT NOT NULL,
                    liked INTEGER NOT NULL DEFAULT 0, liked_at REAL NOT NULL DEFAULT 0,
                    trashed INTEGER NOT NULL DEFAULT 0, score REAL NOT NULL DEFAULT 0,
                    PRIMARY KEY (listener, sid)
                ) WITHOUT ROWID;
                INSERT INTO song_mark_v8 (listener, sid, liked, liked_at, trashed, score)
                    SELECT listener, sid, liked, liked_at, trashed, score FROM song_mark;
                DROP TABLE song_mark;
                ALTER TABLE song_mark_v8 RENAME TO song_mark;

                CREATE TABLE affinity_v8 (
                    listener TEXT NOT NULL, facet TEXT NOT NULL, value TEXT NOT NULL,
                    score REAL NOT NULL,
                    PRIMARY KEY (listener, facet, value)
                ) WITHOUT ROWID;
                INSERT INTO affinity_v8 (listener, facet, value, score)
                    SELECT listener, facet, value, score FROM affinity;
                DROP TABLE affinity;
                ALTER TABLE affinity_v8 RENAME TO affinity;

                CREATE TABLE listener_v8 (key TEXT PRIMARY KEY NOT NULL, recent TEXT NOT NULL) WITHOUT ROWID;
                INSERT INTO listener_v8 (key, recent) SELECT key, recent FROM listener;
                DROP TABLE listener;
                ALTER TABLE listener_v8 RENAME TO listener;
                """)
        }
        return migrator
    }
}

extension StationDatabase {
    /// Reads synchronously, blocking the calling thread: for scans, which run on a queue of
    /// their own, never on the cooperative pool.
    package func access<T>(_ body: (Database) throws -> T) throws(StorageError) -> T {
        do {
            return try pool.read(body)
        } catch {
            throw StorageError(path: path, reason: Self.reason(error))
        }
    }

    /// Writes synchronously in one transaction, blocking the calling thread (see ``access(_:)``).
    package func write<T>(_ body: (Database) throws -> T) throws(StorageError) -> T {
        do {
            return try pool.write(body)
        } catch {
            throw StorageError(path: path, reason: Self.reason(error))
        }
    }

    /// Reads without blocking the caller's thread: GRDB runs the work on its own queue.
    package func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StorageError) -> T {
        do {
            return try await pool.read(body)
        } catch {
            throw StorageError(path: path, reason: Self.reason(error))
        }
    }

    /// Writes in one transaction without blocking the caller's thread.
    package func update<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StorageError) -> T {
        do {
            return try await pool.write(body)
        } catch {
            throw StorageError(path: path, reason: Self.reason(error))
        }
    }
}
