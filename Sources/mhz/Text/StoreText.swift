import Store

/// What mhz's own database said, in words: one clause (SQLite's own words after a colon),
/// for the lines of the command line and the downloads that name a failure of it.
enum StoreText {
    /// The failure as a clause, e.g. "cannot open /…/mhz.sqlite: unable to open database file".
    static func words(_ failure: StoreError) -> String {
        switch failure {
        case .cannotOpen(let path, let reason): "cannot open \(path): \(reason)"
        case .damaged(let path, let reason): "\(path) is damaged: \(reason)"
        case .migrationFailed(let reason): "cannot bring the database's tables up to date: \(reason)"
        case .operationFailed(let reason): "the database failed: \(reason)"
        case .diskFull(let reason): "the disk is full: \(reason)"
        }
    }
}
