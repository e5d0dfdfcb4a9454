import Radio
import RadioAPI
import Store

/// The radio's ``RadioStore`` port over mhz's database: positions and settings
/// (``ProgressStore``) and the report outbox (``ReportOutboxStore``), with the radio's
/// values turned into the database's rows and back, and its failures into the radio's.
public struct RadioDatabase: RadioStore {
    /// The database the radio's rows are kept in.
    public let database: MhzDatabase

    /// The port over `database`.
    public init(_ database: MhzDatabase) {
        self.database = database
    }

    // MARK: - Positions and settings

    /// Saves the position as the song's row.
    public func savePosition(_ position: PlaybackPosition) throws(StorageFailure) {
        try translated { () throws(StoreError) in try database.savePosition(Self.record(position)) }
    }

    /// The most recently saved position.
    public func lastPosition() throws(StorageFailure) -> PlaybackPosition? {
        try translated { () throws(StoreError) in try database.lastPosition().map(Self.playbackPosition) }
    }

    /// The saved position of one song.
    public func position(sid: String) throws(StorageFailure) -> PlaybackPosition? {
        try translated { () throws(StoreError) in try database.position(sid: sid).map(Self.playbackPosition) }
    }

    /// Stores a setting; `nil` removes it.
    public func setSetting(_ key: String, _ value: String?) throws(StorageFailure) {
        try translated { () throws(StoreError) in try database.setSetting(key, value) }
    }

    /// A stored setting.
    public func setting(_ key: String) throws(StorageFailure) -> String? {
        try translated { () throws(StoreError) in try database.setting(key) }
    }

    // MARK: - The report outbox

    /// Stores the report as a row: its type letter, and `h` in wire form.
    public func keepReport(_ report: Report) throws(StorageFailure) -> Int64 {
        let entry = OutboxEntry(type: report.type.rawValue, channel: report.channel, sid: report.sid,
                                history: report.history.map(ReportHistory.wireForm), playedTime: report.playedTime)
        let id = try translated { () throws(StoreError) in try database.enqueueReport(entry).id }
        guard let id else { throw .failed("the outbox assigned no row id") }
        return id
    }

    /// Reads every row back into a typed report; a row whose type is not feedback
    /// (`e r u s b`) or that names no song is unreadable.
    public func waitingReports() throws(StorageFailure) -> [StoredReport] {
        try translated { () throws(StoreError) in try database.pendingReports() }.compactMap { entry in
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
    public func forgetReport(id: Int64) throws(StorageFailure) {
        try translated { () throws(StoreError) in try database.removeReport(id: id) }
    }

    // MARK: - Values and failures

    /// The row of a position.
    public static func record(_ position: PlaybackPosition) -> PositionRecord {
        PositionRecord(sid: position.sid, channel: position.channel, position: position.position,
                       duration: position.duration, url: position.url, title: position.title,
                       artist: position.artist, album: position.album, savedAt: position.savedAt)
    }

    /// The position a row holds.
    public static func playbackPosition(_ record: PositionRecord) -> PlaybackPosition {
        PlaybackPosition(sid: record.sid, channel: record.channel, position: record.position,
                         duration: record.duration, url: record.url, title: record.title,
                         artist: record.artist, album: record.album, savedAt: record.savedAt)
    }

    /// Runs a database call, its failure in the radio's terms: a full disk as such (the
    /// radio writes again later), anything else as words naming it.
    private func translated<T>(_ call: () throws(StoreError) -> T) throws(StorageFailure) -> T {
        do throws(StoreError) {
            return try call()
        } catch {
            switch error {
            case .diskFull(let reason): throw .diskFull(reason)
            case .cannotOpen(let path, let reason), .damaged(let path, let reason): throw .failed("\(path): \(reason)")
            case .migrationFailed(let reason), .operationFailed(let reason): throw .failed(reason)
            }
        }
    }
}
