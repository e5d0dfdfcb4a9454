import Foundation
import GRDB

/// How far an HLS download got: the media playlist it follows and the segments already
/// appended to its partial file, written after each append so that a resume (after a
/// pause, a failure or a `kill -9`) continues at the next segment.
///
/// Kept in a table of its own, written only by the HLS fetcher, so the manager's saves of
/// the task's row never overwrite it with an older value.
public struct HLSProgress: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    /// The download task (its row in `download`; deleting that row deletes this one).
    public var downloadID: Int64
    /// The media playlist followed: the chosen variant's or audio rendition's URL, so a
    /// resume fetches the same quality even if the master playlist changed.
    public var playlistURL: String
    /// The media sequence number of the next segment to append: segments are matched by
    /// number, not by URI (signed URIs change between reloads; one URI may be listed twice).
    public var nextSequence: Int
    /// Segments appended so far.
    public var segmentsDone: Int
    /// Bytes of the partial file the appended segments fill: a longer file (killed after an
    /// append, before this row) is cut back to this length.
    public var bytes: Int64
    /// Seconds of media appended (EXTINF durations), for a live recording's limit.
    public var recordedSeconds: Double
    /// Where each period after the first starts in the partial file: the byte offset of
    /// each appended segment that follows an `EXT-X-DISCONTINUITY` (stored as a JSON array).
    public var periodStarts: [Int64]
    /// When it was last written.
    public var updatedAt: Date

    /// Creates a progress row.
    public init(downloadID: Int64, playlistURL: String, nextSequence: Int, segmentsDone: Int, bytes: Int64,
                recordedSeconds: Double, periodStarts: [Int64] = [], updatedAt: Date = Date()) {
        self.downloadID = downloadID
        self.playlistURL = playlistURL
        self.nextSequence = nextSequence
        self.segmentsDone = segmentsDone
        self.bytes = bytes
        self.recordedSeconds = recordedSeconds
        self.periodStarts = periodStarts
        self.updatedAt = updatedAt
    }

    /// The table.
    public static let databaseTableName = "hls_progress"

    enum CodingKeys: String, CodingKey {
        case downloadID = "download_id", playlistURL = "playlist_url", nextSequence = "next_sequence"
        case segmentsDone = "segments_done", bytes, recordedSeconds = "recorded_seconds", periodStarts = "period_starts"
        case updatedAt = "updated_at"
    }
}
