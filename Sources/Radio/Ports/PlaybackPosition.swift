import Foundation

/// Where the listener was in a song: what it was, on which channel, and how far in. The
/// radio saves one every few seconds while playing and on pause and quit
/// (``RadioEffect/savePosition(_:)``), and reads them back through ``ProgressStore`` to
/// resume the last session and long items.
public struct PlaybackPosition: Sendable, Equatable {
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

    /// Whether it was played (nearly) to the end: past 95 % of a known duration.
    public var isFinished: Bool { duration > 0 && position >= 0.95 * duration }

    /// Creates a position.
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
}
