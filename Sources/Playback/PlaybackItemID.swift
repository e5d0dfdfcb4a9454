/// Identifies one `PlayerController.load(_:startAt:)`: the mpv playlist entry id that the
/// load created. Events carry it so callers can tell the item they care about from the one
/// a new load replaced.
public struct PlaybackItemID: Hashable, Sendable, CustomStringConvertible {
    /// mpv's `playlist_entry_id`: positive, unique and increasing for the handle's lifetime.
    public let rawValue: Int64

    /// Wraps an mpv playlist entry id.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// `#<id>`, for logs.
    public var description: String { "#\(rawValue)" }
}
