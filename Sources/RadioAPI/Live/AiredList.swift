/// The body of `/live/<channel>/aired.json` (docs/PROTOCOL.md §11): the songs a live
/// channel aired that its segments still hold, newest first.
public struct AiredList: Codable, Sendable, Equatable {
    /// Newest first.
    public var songs: [AiredSong]

    /// Creates the list.
    public init(songs: [AiredSong]) {
        self.songs = songs
    }
}
