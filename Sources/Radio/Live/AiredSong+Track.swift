import RadioAPI

extension AiredSong {
    /// The song as front ends show it, its length the time it was on the air.
    public func track(channel: String) -> Track {
        Track(sid: sid, title: title, artist: artist, length: (Double(end) - Double(start)) / 1000, url: url, channel: channel)
    }
}
