import RadioAPI
import Store

/// Where the radio keeps what must survive a restart. `MhzDatabase` is the real one.
public protocol ProgressStore: Sendable {
    /// Saves the position of a song.
    func savePosition(_ position: PlaybackPosition) throws(StoreError)
    /// The most recently saved position: where the last session was.
    func lastPosition() throws(StoreError) -> PlaybackPosition?
    /// The saved position of one song.
    func position(sid: String) throws(StoreError) -> PlaybackPosition?
    /// Stores a setting; `nil` removes it.
    func setSetting(_ key: String, _ value: String?) throws(StoreError)
    /// A stored setting.
    func setting(_ key: String) throws(StoreError) -> String?
}

/// Where reports wait until the station has them, typed. `MhzDatabase` is the real one.
public protocol ReportOutboxStore: Sendable {
    /// Appends a report; returns its id, which is its place in line.
    func keepReport(_ report: Report) throws(StoreError) -> Int64
    /// The waiting reports, oldest first, each read back into a typed report or named as
    /// unreadable.
    func waitingReports() throws(StoreError) -> [StoredReport]
    /// Forgets a report: delivered, refused for good, or unreadable.
    func forgetReport(id: Int64) throws(StoreError)
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

extension MhzDatabase: ProgressStore {}

extension MhzDatabase: ReportOutboxStore {
    /// Stores the report as a row: its type letter, and `h` in wire form.
    public func keepReport(_ report: Report) throws(StoreError) -> Int64 {
        let entry = OutboxEntry(type: report.type.rawValue, channel: report.channel, sid: report.sid,
                                history: report.history.map(ReportHistory.wireForm), playedTime: report.playedTime)
        guard let id = try enqueueReport(entry).id else { throw .operationFailed("the outbox assigned no row id") }
        return id
    }

    /// Reads every row back into a typed report; a row whose type is not feedback
    /// (`e r u s b`) or that names no song is unreadable.
    public func waitingReports() throws(StoreError) -> [StoredReport] {
        try pendingReports().compactMap { entry in
            guard let id = entry.id else { return nil }
            guard let type = ReportType(rawValue: entry.type), type.isFeedback, let sid = entry.sid else {
                return .unreadable(id: id, type: entry.type)
            }
            return .readable(id: id, Report(type: type, channel: entry.channel, sid: sid,
                                            history: entry.history.map(ReportHistory.parse),
                                            playedTime: entry.playedTime))
        }
    }

    /// Deletes the row.
    public func forgetReport(id: Int64) throws(StoreError) {
        try removeReport(id: id)
    }
}

/// Setting keys the radio uses.
public enum RadioSettingKey {
    /// The channel listened to last; where the next start begins.
    public static let lastChannel = "radio.last_channel"
}
