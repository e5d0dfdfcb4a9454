import MusicLibrary
import RadioAPI

extension LibraryTrack {
    /// The song object the playlist endpoint sends for this track.
    ///
    /// - Parameters:
    ///   - mediaBase: the server root as the client addressed it, e.g. `http://127.0.0.1:7650`.
    ///   - liked: whether this listener gave the song a red heart.
    func song(mediaBase: String, liked: Bool) -> Song {
        Song(
            sid: sid, ssid: ssid, aid: aid, title: title, artist: artist,
            // Douban's `album` is the album page path on the music site; the station has
            // no such site, so it names the album id in the same shape.
            album: "/subject/\(aid)/", albumTitle: album,
            picture: cover.isEmpty ? "" : "\(mediaBase)\(StationRouter.coverPrefix)/\(cover)",
            url: "\(mediaBase)\(StationRouter.mediaPrefix)/\(mediaFileName)", length: durationSeconds, like: liked,
            publicTime: year > 0 ? String(year) : "", company: "",
            kbps: bitrate > 0 ? bitrate : nil, subtype: "")
    }
}
