import Foundation
import GRDB

/// A report waiting to reach the station: feedback made while it was unreachable (or not
/// yet confirmed), kept until the station acknowledges it so nothing the listener said is
/// lost, also across a restart.
public struct OutboxEntry: Codable, Sendable, Equatable, TimestampedRecord, FetchableRecord, MutablePersistableRecord {
    /// Delivery order: the row id, assigned on insert (AUTOINCREMENT never reuses one).
    public var id: Int64?
    /// The one-letter report type (`e`, `r`, `u`, `s`, `b`), as the radio wrote it. The
    /// store keeps the letter as it is; the radio reads it back into its typed report and
    /// skips a row whose letter it does not know.
    public var type: String
    /// The channel it was made on.
    public var channel: String
    /// The song it is about; `nil` for a report about no song.
    public var sid: String?
    /// The `h` history as it was when the report was made, or `nil` to send none.
    public var history: String?
    /// Seconds played when the report was made.
    public var playedTime: Double?
    /// When the report was made.
    public var createdAt: Date

    /// Creates an entry; the id is assigned when it is stored.
    public init(type: String, channel: String, sid: String?, history: String?, playedTime: Double?,
                createdAt: Date = Date()) {
        self.type = type
        self.channel = channel
        self.sid = sid
        self.history = history
        self.playedTime = playedTime
        self.createdAt = createdAt
    }

    /// The table.
    public static let databaseTableName = "report_outbox"

    enum CodingKeys: String, CodingKey {
        case id, type, channel, sid, history, playedTime = "played_time", createdAt = "created_at"
    }

    /// Keeps the id SQLite assigned.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
