import RadioAPI

/// Where the radio keeps what must survive a restart. The real one is mhz's database, through
/// the composition root's adapter (`RadioDatabase`).
public protocol ProgressStore: Sendable {
    /// Saves the position of a song.
    func savePosition(_ position: PlaybackPosition) throws(StorageFailure)
    /// The most recently saved position: where the last session was.
    func lastPosition() throws(StorageFailure) -> PlaybackPosition?
    /// The saved position of one song.
    func position(sid: String) throws(StorageFailure) -> PlaybackPosition?
    /// Stores a setting; `nil` removes it.
    func setSetting(_ key: String, _ value: String?) throws(StorageFailure)
    /// A stored setting.
    func setting(_ key: String) throws(StorageFailure) -> String?
}

/// Where reports wait until the station has them, typed. The real one is mhz's database,
/// through the composition root's adapter (`RadioDatabase`).
public protocol ReportOutboxStore: Sendable {
    /// Appends a report; returns its id, which is its place in line.
    func keepReport(_ report: Report) throws(StorageFailure) -> Int64
    /// The waiting reports, oldest first, each read back into a typed report or named as
    /// unreadable.
    func waitingReports() throws(StorageFailure) -> [StoredReport]
    /// Forgets a report: delivered, refused for good, or unreadable.
    func forgetReport(id: Int64) throws(StorageFailure)
}

/// One row of the report outbox as the radio reads it back.
public enum StoredReport: Sendable, Equatable {
    /// A report to send, with its row id.
    case readable(id: Int64, Report)
    /// A row that is no feedback report the radio knows (an unknown or non-feedback type
    /// letter, or feedback naming no song): never sent, only skipped and forgotten.
    case unreadable(id: Int64, type: String)
}

/// Everything the radio keeps on disk.
public typealias RadioStore = ProgressStore & ReportOutboxStore

/// Setting keys the radio uses.
public enum RadioSettingKey {
    /// The channel listened to last; where the next start begins.
    public static let lastChannel = "radio.last_channel"
}
