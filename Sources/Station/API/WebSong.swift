import MusicLibrary
import RadioAPI

/// A song as the web v2 family sent it (`/j/v2/playlist`, fixture F11): the classic fields
/// plus `file_ext`, `status`, `alert_msg`, `singers`, `release`, `is_royal` and
/// `available_formats` (approximate sizes in kB per bitrate), and mhz's `reason` and `gain`
/// extensions when the song has them. `update_time` and `sha256`
/// are left out: the station knows neither for a transcode before it is made.
struct WebSong: Encodable, Sendable, Equatable {
    /// The classic fields, as the app family sends them.
    var song: Song
    /// What `url` serves: `mp3`, or the original's extension.
    var fileExtension: String
    /// The track's genre, for its singer's `genre`.
    var genre: String

    /// One `singers` entry: the artist, as far as the library names one.
    private struct Singer: Encodable, Sendable, Equatable {
        var id: String
        var name: String
        var name_usual: String
        var region: [String] = []
        var genre: [String]
        var style: [String] = []
        var avatar: String
        var related_site_id = 0
        var is_site_artist = false
    }

    /// `release`: the album, with its id and the song's ssid.
    private struct Release: Encodable, Sendable, Equatable {
        var id: String
        var ssid: String
        var link: String
    }

    private enum Keys: String, CodingKey {
        case sid, ssid, aid, title, artist, album, albumtitle, picture, url, length, like, public_time, kbps
        case subtype, file_ext, status, alert_msg, singers, release, is_royal, available_formats, reason, gain
    }

    /// Encodes the v2 shape (types as F11: `kbps` a string, `like` and `length` numbers).
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(song.sid, forKey: .sid)
        try c.encode(song.ssid, forKey: .ssid)
        try c.encode(song.aid, forKey: .aid)
        try c.encode(song.title, forKey: .title)
        try c.encode(song.artist, forKey: .artist)
        try c.encode(song.album, forKey: .album)
        try c.encode(song.albumTitle, forKey: .albumtitle)
        try c.encode(song.picture, forKey: .picture)
        try c.encode(song.url, forKey: .url)
        try c.encode(song.length, forKey: .length)
        try c.encode(song.like ? 1 : 0, forKey: .like)
        try c.encode(song.publicTime, forKey: .public_time)
        try c.encodeIfPresent(song.kbps.map(String.init), forKey: .kbps)
        try c.encode(song.subtype, forKey: .subtype)
        try c.encode(fileExtension, forKey: .file_ext)
        try c.encode(0, forKey: .status)
        try c.encode("", forKey: .alert_msg)
        let artistID = String(TrackIdentity.hash(song.artist.lowercased()) % 1_000_000)
        try c.encode([Singer(id: artistID, name: song.artist, name_usual: song.artist,
                             genre: genre.isEmpty ? [] : [genre], avatar: song.picture)], forKey: .singers)
        try c.encode(Release(id: song.aid, ssid: song.ssid, link: song.album), forKey: .release)
        try c.encode(false, forKey: .is_royal)
        var formats: [String: Int] = [:]
        for kbps in ServedFormat.bitrates { formats[String(kbps)] = kbps * song.length / 8 }
        try c.encode(formats, forKey: .available_formats)
        try c.encodeIfPresent(song.reason, forKey: .reason)
        try c.encodeIfPresent(song.gain, forKey: .gain)
    }
}

/// The envelope of a web v2 playlist answer (fixture F11): `r`, `version_max`,
/// `is_show_quick_start`, `song`, and the anonymous `warning` (with `logout` when the
/// request's session cookie was no longer valid, so a client logs in again).
struct WebPlaylist: Encodable, Sendable, Equatable {
    /// The songs.
    var songs: [WebSong]
    /// Anonymous: `warning: "user_is_ananymous"` (sic).
    var isAnonymous: Bool
    /// The session cookie sent was not a live login.
    var sessionLapsed: Bool
    /// `is_show_quick_start`: 1 for the anonymous red-heart answer (F5b), else 0.
    var showQuickStart: Int

    private enum Keys: String, CodingKey {
        case r, version_max, is_show_quick_start, song, warning, logout
    }

    /// Encodes the envelope.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(0, forKey: .r)
        try c.encode(100, forKey: .version_max)
        try c.encode(showQuickStart, forKey: .is_show_quick_start)
        if isAnonymous { try c.encode("user_is_ananymous", forKey: .warning) }
        if sessionLapsed { try c.encode(1, forKey: .logout) }
        try c.encode(songs, forKey: .song)
    }
}
