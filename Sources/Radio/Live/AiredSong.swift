/// One song of a live channel's programme as the station aired it: a row of
/// `/live/<channel>/aired.json` (docs/PROTOCOL.md §11).
public struct AiredSong: Sendable, Equatable {
    /// Song id.
    public var sid: String
    /// Title.
    public var title: String
    /// Artist(s).
    public var artist: String
    /// When its audio started on the air, in milliseconds since the epoch.
    public var start: Int64
    /// When its audio ended (or, for the song on the air, is expected to end).
    public var end: Int64
    /// A playlist of exactly this song's segments (`mhz download` keeps it).
    public var url: String

    /// Creates a row.
    public init(sid: String, title: String, artist: String, start: Int64, end: Int64, url: String) {
        self.sid = sid
        self.title = title
        self.artist = artist
        self.start = start
        self.end = end
        self.url = url
    }

    /// Whether the audio of `moment` (ms since the epoch) belongs to this song.
    public func holds(_ moment: Int64) -> Bool { start <= moment && moment < end }

    /// The song as front ends show it, its length the time it was on the air.
    public func track(channel: String) -> Track {
        Track(sid: sid, title: title, artist: artist, length: (Double(end) - Double(start)) / 1000, url: url, channel: channel)
    }

    /// The song of `songs` whose audio holds `moment`; when songs overlap (a song's
    /// expected end is later than the next one's start), the latest to start.
    public static func heard(at moment: Int64, in songs: [AiredSong]) -> AiredSong? {
        songs.filter { $0.holds(moment) }.max { $0.start < $1.start }
    }
}
