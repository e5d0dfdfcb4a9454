/// A song the listener trashed, on the station it came from: offline listening never
/// plays it.
public struct TrashedSong: Sendable, Hashable {
    /// The station (its URL, or `embedded`).
    public var station: String
    /// The station's song id.
    public var sid: String

    /// Creates an entry.
    public init(station: String, sid: String) {
        self.station = station
        self.sid = sid
    }
}
