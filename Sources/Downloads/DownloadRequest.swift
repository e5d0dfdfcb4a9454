import Foundation
import Store

/// What to download: a media URL and, when it is a station's song, what the station said
/// about it (for the file name, the tags, the check and the record).
public struct DownloadRequest: Sendable, Equatable {
    /// The media URL (`http(s)://`, or `file://` for the embedded station's songs).
    public var url: String
    /// Title ("" when unknown: the URL's file name is used).
    public var title: String
    /// Artist.
    public var artist: String
    /// Album.
    public var album: String
    /// Year, as the station gives it.
    public var year: String
    /// Cover image URL.
    public var coverURL: String?
    /// The station's song id.
    public var sid: String?
    /// The channel it came from.
    public var channel: String?
    /// The station (its URL, or `embedded`).
    public var station: String?
    /// The station's SHA-256 of the file, when it gives one.
    public var sha256: String?

    /// Creates a request.
    public init(url: String, title: String = "", artist: String = "", album: String = "", year: String = "",
                coverURL: String? = nil, sid: String? = nil, channel: String? = nil, station: String? = nil,
                sha256: String? = nil) {
        self.url = url
        self.title = title
        self.artist = artist
        self.album = album
        self.year = year
        self.coverURL = coverURL
        self.sid = sid
        self.channel = channel
        self.station = station
        self.sha256 = sha256
    }

    /// The row for it, to be written at `path`.
    func record(path: String) -> DownloadRecord {
        var title = self.title
        if title.isEmpty, artist.isEmpty {
            let link = URL(string: url)
            let name = link?.deletingPathExtension().lastPathComponent ?? ""
            title = name.removingPercentEncoding ?? name
            if title.isEmpty || title == "/" { title = link?.host ?? "download" }
        }
        return DownloadRecord(url: url, title: title, artist: artist, album: album, year: year, coverURL: coverURL,
                              sid: sid, channel: channel, station: station,
                              sha256: sha256.flatMap { $0.isEmpty ? nil : $0.lowercased() }, path: path)
    }
}
