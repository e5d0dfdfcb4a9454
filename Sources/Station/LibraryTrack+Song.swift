import MusicLibrary
import RadioAPI

extension LibraryTrack {
    /// The song object the playlist endpoint sends for this track.
    ///
    /// - Parameters:
    ///   - links: where its `url` and `picture` point (see ``MediaLinks``).
    ///   - liked: whether this listener gave the song a red heart.
    func song(links: MediaLinks, liked: Bool) -> Song {
        let url: String, picture: String
        switch links {
        case .http(let base):
            url = "\(base)\(StationRouter.mediaPrefix)/\(mediaFileName)"
            picture = cover.isEmpty ? "" : "\(base)\(StationRouter.coverPrefix)/\(cover)"
        case .files(let covers):
            url = file.absoluteString
            picture = cover.isEmpty ? "" : covers.file(named: cover)?.absoluteString ?? ""
        }
        return Song(
            sid: sid, ssid: ssid, aid: aid, title: title, artist: artist,
            // Douban's `album` is the album page path on the music site; the station has
            // no such site, so it names the album id in the same shape.
            album: "/subject/\(aid)/", albumTitle: album,
            picture: picture, url: url, length: durationSeconds, like: liked,
            publicTime: year > 0 ? String(year) : "", company: "",
            kbps: bitrate > 0 ? bitrate : nil, subtype: "")
    }
}
