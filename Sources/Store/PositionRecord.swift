import Foundation
import GRDB

/// A row of `playback_position`: where the listener was in a song, what it was, on which
/// channel, and how far in. The radio saves one every few seconds while playing and on
/// pause and quit; the composition root turns the radio's own value into this row and back,
/// so the radio does not depend on the database.
public struct PositionRecord: Codable, Sendable, Equatable, TimestampedRecord, FetchableRecord, PersistableRecord {
    /// The song id.
    public var sid: String
    /// The channel it was playing on.
    public var channel: String
    /// Seconds played.
    public var position: Double
    /// Duration in seconds, when known (0 otherwise).
    public var duration: Double
    /// The audio URL it was played from (may have expired by the next start).
    public var url: String
    /// Title, for display when resuming.
    public var title: String
    /// Artist, for display when resuming.
    public var artist: String
    /// Album, for display when resuming.
    public var album: String
    /// When this was saved.
    public var savedAt: Date

    /// Creates a row.
    public init(sid: String, channel: String, position: Double, duration: Double = 0, url: String = "",
                title: String = "", artist: String = "", album: String = "", savedAt: Date = Date()) {
        self.sid = sid
        self.channel = channel
        self.position = position
        self.duration = duration
        self.url = url
        self.title = title
        self.artist = artist
        self.album = album
        self.savedAt = savedAt
    }

    /// The table: one row per song, so long items can later resume where they were left.
    public static let databaseTableName = "playback_position"

    /// The table's column names: the properties' own, but `saved_at` in snake case.
    enum CodingKeys: String, CodingKey {
        case sid, channel, position, duration, url, title, artist, album, savedAt = "saved_at"
    }
}
