import Foundation
import HLSPlaylist
import Store

/// What to download: a media URL and, when it is a station's song, what the station said
/// about it (for the file name, the tags, the check and the record).
public struct DownloadRequest: Sendable, Equatable {
    /// The media URL (`http(s)://`, or `file://` for the embedded station's songs).
    public var url: String { didSet { link = URL(string: url) } }
    /// ``url`` parsed, once, for all that reads it (its kind, extension and name); nil when
    /// it is not a URL.
    public private(set) var link: URL?
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
    /// What the URL is: a media file, or an HLS playlist (a URL whose path ends in `.m3u8`
    /// or `.m3u`, unless said otherwise).
    public var kind: DownloadRecord.Kind
    /// The finished file's extension, when the caller knows it (an HLS stream's container,
    /// read from its playlist); else taken from the plan or the URL.
    public var fileExtension: String?
    /// For HLS: the variant; nil for the fetcher's default.
    public var quality: VariantQuality?
    /// For HLS: the audio rendition's language.
    public var audioLanguage: String?
    /// For a live HLS playlist: seconds to record.
    public var recordSeconds: Double?
    /// For HLS: the plan the caller made from the playlist (``HLSPlanner/plan(_:quality:audioLanguage:)``,
    /// with this request's quality and audio language), which the task's first transfer
    /// follows instead of reading the playlist again. Kept in memory only: a task continued
    /// later follows the media playlist its progress row names.
    public var plan: HLSPlan?

    /// Creates a request.
    public init(url: String, title: String = "", artist: String = "", album: String = "", year: String = "",
                coverURL: String? = nil, sid: String? = nil, channel: String? = nil, station: String? = nil,
                sha256: String? = nil, kind: DownloadRecord.Kind? = nil, fileExtension: String? = nil,
                quality: VariantQuality? = nil, audioLanguage: String? = nil, recordSeconds: Double? = nil,
                plan: HLSPlan? = nil) {
        self.url = url
        link = URL(string: url)
        self.title = title
        self.artist = artist
        self.album = album
        self.year = year
        self.coverURL = coverURL
        self.sid = sid
        self.channel = channel
        self.station = station
        self.sha256 = sha256
        self.kind = kind ?? Self.kind(of: link)
        self.fileExtension = fileExtension
        self.quality = quality
        self.audioLanguage = audioLanguage
        self.recordSeconds = recordSeconds
        self.plan = plan
    }

    /// Names packagers give every playlist.
    static let genericPlaylistNames: Set<String> = ["index", "master", "playlist", "prog_index", "chunklist", "main",
                                                     "stream", "media", "mono", "live"]

    /// An HLS playlist by its URL's path (`.m3u8`, `.m3u`), else a media file.
    public static func kind(of link: URL?) -> DownloadRecord.Kind {
        let ext = (link?.pathExtension ?? "").lowercased()
        return ext == "m3u8" || ext == "m3u" ? .hls : .file
    }

    /// The finished file's extension.
    var resolvedExtension: String {
        if let fileExtension, !fileExtension.isEmpty { return fileExtension }
        if kind == .hls { return plan?.fileExtension ?? "ts" }
        return SongFileName.mediaExtension(of: link) ?? "mp3"
    }

    /// The row for it, to be written at `path`.
    func record(path: String) -> DownloadRecord {
        var title = self.title
        if title.isEmpty, artist.isEmpty {
            var name = link?.deletingPathExtension().lastPathComponent ?? ""
            // A playlist's own name says nothing (`index.m3u8`, `master.m3u8`): its folder does.
            if kind == .hls, Self.genericPlaylistNames.contains(name.lowercased()),
               let folder = link?.deletingLastPathComponent().lastPathComponent, !folder.isEmpty, folder != "/"
            {
                name = folder
            }
            title = name.removingPercentEncoding ?? name
            if title.isEmpty || title == "/" { title = link?.host ?? "download" }
        }
        return DownloadRecord(kind: kind, url: url, title: title, artist: artist, album: album, year: year,
                              coverURL: coverURL, sid: sid, channel: channel, station: station,
                              sha256: sha256.flatMap { $0.isEmpty ? nil : $0.lowercased() }, path: path,
                              quality: quality?.name, audioLanguage: audioLanguage, recordSeconds: recordSeconds)
    }
}
