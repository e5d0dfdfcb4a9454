import Foundation
import GRDB

/// One download as mhz keeps it: what to fetch, the song it is, where it goes and how far
/// it got when its state last changed (``bytes``, for lists). What a resume continues from
/// is the partial file on disk, measured again at each start: a row's count can lag behind
/// the file, and never makes a resume trust bytes that a kill -9 did not let reach it.
public struct DownloadRecord: Codable, Sendable, Equatable, TimestampedRecord, FetchableRecord, MutablePersistableRecord {
    /// The task's number, shown to the user and named by `mhz downloads pause ID`.
    public var id: Int64?
    /// What is fetched.
    public var kind: Kind
    /// The media URL (or, for HLS, the playlist's).
    public var url: String
    /// Where the task stands, as last decided.
    public var state: State
    /// Why it failed or waits, in the downloads layer's words; nil otherwise.
    public var reason: String?
    /// The song's title, for the file name, the tags and the list.
    public var title: String
    /// Its artist.
    public var artist: String
    /// Its album ("" when unknown).
    public var album: String
    /// Its year ("" when unknown).
    public var year: String
    /// Its cover image URL, when the station gave one.
    public var coverURL: String?
    /// The station's song id, when the song came from a station.
    public var sid: String?
    /// The channel it came from.
    public var channel: String?
    /// The station it came from (its URL, or `embedded`).
    public var station: String?
    /// The SHA-256 (lowercase hex) the station gave for the file, checked before the file
    /// is kept.
    public var sha256: String?
    /// The finished file's path. Bytes arrive in the same path with `.part` appended.
    public var path: String
    /// Bytes on disk when its state last changed (the partial file is the truth).
    public var bytes: Int64
    /// The file's full length, when the server said.
    public var total: Int64?
    /// For HLS: the variant asked for (`best`, `worst` or kbit/s); nil for the configured one.
    public var quality: String?
    /// For HLS: the audio rendition's language asked for, if any.
    public var audioLanguage: String?
    /// For a live HLS playlist: seconds to record; nil records until stopped or the end.
    public var recordSeconds: Double?
    /// When the task was made.
    public var createdAt: Date
    /// When its state last changed.
    public var updatedAt: Date

    /// What a task fetches.
    public enum Kind: String, Codable, Sendable {
        /// One media file over HTTP.
        case file
        /// An HLS playlist: its segments, decrypted and joined into one file.
        case hls
    }

    /// Where a task stands, as stored. A task that was `running` or `waiting` when mhz
    /// stopped is continued at the next start.
    public enum State: String, Codable, Sendable, CaseIterable {
        /// Waiting for a free slot.
        case queued
        /// Fetching.
        case running
        /// Stopped by the user; keeps its bytes.
        case paused
        /// Failed for a reason that may pass (the network); tried again later.
        case waiting
        /// Fetched, verified and in place.
        case completed
        /// Failed for a reason that will not pass by itself; the user may retry.
        case failed
        /// Stopped by the user for good; its partial file is gone.
        case canceled
    }

    /// Creates a record; the id is assigned when it is stored.
    public init(kind: Kind = .file, url: String, state: State = .queued, reason: String? = nil, title: String,
                artist: String, album: String = "", year: String = "", coverURL: String? = nil, sid: String? = nil,
                channel: String? = nil, station: String? = nil, sha256: String? = nil, path: String, bytes: Int64 = 0,
                total: Int64? = nil, quality: String? = nil, audioLanguage: String? = nil, recordSeconds: Double? = nil,
                createdAt: Date = Date(), updatedAt: Date? = nil) {
        self.kind = kind
        self.url = url
        self.state = state
        self.reason = reason
        self.title = title
        self.artist = artist
        self.album = album
        self.year = year
        self.coverURL = coverURL
        self.sid = sid
        self.channel = channel
        self.station = station
        self.sha256 = sha256
        self.path = path
        self.bytes = bytes
        self.total = total
        self.quality = quality
        self.audioLanguage = audioLanguage
        self.recordSeconds = recordSeconds
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }

    /// The table.
    public static let databaseTableName = "download"

    enum CodingKeys: String, CodingKey {
        case id, kind, url, state, reason, title, artist, album, year, sid, channel, station, sha256, path, bytes, total
        case quality, audioLanguage = "audio_language", recordSeconds = "record_seconds"
        case coverURL = "cover_url", createdAt = "created_at", updatedAt = "updated_at"
    }

    /// Keeps the id SQLite assigned.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
