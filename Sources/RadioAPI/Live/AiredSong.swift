/// One song a live channel aired: an entry of `/live/<channel>/aired.json`
/// (docs/PROTOCOL.md §11), as the station writes it and a listener reads it.
public struct AiredSong: Codable, Sendable, Equatable {
    /// Song id.
    public var sid: String
    /// Title.
    public var title: String
    /// Artist(s).
    public var artist: String
    /// When its audio started on the air, in milliseconds since the epoch.
    public var start: Int64
    /// When its audio ended; for the song on the air, the later of its expected end and
    /// the end of the newest segment, so that it holds the live edge until the next song
    /// starts.
    public var end: Int64
    /// The master playlist of exactly this song's segments (`mhz download` keeps it); for
    /// the song on the air, one that goes on live from its start.
    public var url: String
    /// Whether it is the song on the air: its `end` still moves on and a vote counts for it.
    public var onAir: Bool

    /// Creates an entry.
    public init(sid: String, title: String, artist: String, start: Int64, end: Int64, url: String, onAir: Bool) {
        self.sid = sid
        self.title = title
        self.artist = artist
        self.start = start
        self.end = end
        self.url = url
        self.onAir = onAir
    }

    /// The wire's names.
    enum CodingKeys: String, CodingKey {
        case sid, title, artist, start, end, url
        case onAir = "on_air"
    }

    /// Whether the audio of `moment` (ms since the epoch) belongs to this song: `start` ≤
    /// `moment` < `end`, whether or not it is on the air.
    public func holds(_ moment: Int64) -> Bool { start <= moment && moment < end }

    /// The song of `songs` whose audio holds `moment`; when songs overlap (a copy read
    /// while the song on the air was expected to end later than it did), the latest to
    /// start. `nil` past every song's end: audio newer than the copy read.
    public static func heard(at moment: Int64, in songs: [AiredSong]) -> AiredSong? {
        songs.filter { $0.holds(moment) }.max { $0.start < $1.start }
    }
}
