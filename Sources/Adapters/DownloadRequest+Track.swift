import Downloads
import Radio

extension DownloadRequest {
    /// The request for a station's song `track`, heard on `channel` of `station`.
    public init(_ track: Track, channel: String?, station: String) {
        self.init(url: track.url, title: track.title, artist: track.artist, album: track.album, year: track.year,
                  coverURL: track.picture.isEmpty ? nil : track.picture, sid: track.sid, channel: channel,
                  station: station, sha256: track.sha256)
    }
}
