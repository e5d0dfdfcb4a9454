/// What can go wrong with mhz's own database. Codable: a download that failed on it keeps
/// it in its row's reason (JSON).
public enum StoreError: Error, Sendable, Equatable, Codable {
    /// The database file could not be opened or created (permissions, not a database,
    /// disk full). Carries the path and SQLite's words.
    case cannotOpen(path: String, reason: String)
    /// The file is not a database or is corrupt (cut short, overwritten): SQLite's
    /// `SQLITE_NOTADB` or `SQLITE_CORRUPT`, or a failed `PRAGMA quick_check`. Carries the
    /// path and what SQLite said; ``MhzDatabase/setAside(path:stamp:)`` keeps it aside.
    case damaged(path: String, reason: String)
    /// The schema could not be brought up to date.
    case migrationFailed(String)
    /// A read or write failed. Carries SQLite's words.
    case operationFailed(String)
    /// A write failed because the disk (or the file system's quota) is full: SQLite's
    /// `SQLITE_FULL`. Nothing was written; the same write can succeed once there is room.
    /// Carries SQLite's words.
    case diskFull(String)
}
