import MusicLibrary
import RadioAPI

extension LibraryTrack {
    /// The song object the app family's playlist endpoints send for this track.
    ///
    /// - Parameters:
    ///   - links: where its `url` and `picture` point (see ``MediaLinks``); `file://` links
    ///     always name the original file.
    ///   - liked: whether this listener gave the song a red heart.
    ///   - rating: its rating over all listeners (`rating_avg`).
    ///   - format: what the `url` serves; its `kbps` is reported.
    ///   - gain: the gain (dB) the station levels the track by, `nil` when it does not: the
    ///     song's `gain` is what of it the `url`'s audio still needs (``ServedFormat/songGain(levelledBy:)``).
    ///   - reason: why it was chosen for the listener (`reason`, an mhz extension).
    func song(links: MediaLinks, liked: Bool, rating: Double, format: ServedFormat, gain: Double? = nil,
              reason: String? = nil) -> Song {
        let served: ServedFormat
        if case .files = links { served = .original } else { served = format }
        return Song(
            sid: sid, ssid: ssid, aid: aid, title: title, artist: artist,
            // Douban's `album` is the album page path on the music site; the station has
            // no such site, so it names the album id in the same shape.
            album: "/subject/\(aid)/", albumTitle: album,
            picture: links.picture(of: self), url: links.media(of: self, format: served), length: durationSeconds,
            like: liked, publicTime: year > 0 ? String(year) : "", company: "", ratingAverage: rating,
            kbps: served.kbps(of: self), subtype: "", reason: reason, gain: served.songGain(levelledBy: gain))
    }
}
