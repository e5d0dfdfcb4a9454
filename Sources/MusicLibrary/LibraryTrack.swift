import Foundation
import RadioAPI

/// One playable file of the library, with the metadata the station serves and the ids it
/// is known by on the wire.
public struct LibraryTrack: Sendable, Equatable {
    /// Song id: digits, like Douban's, derived from ``relativePath`` so it survives
    /// restarts (see ``TrackIdentity``).
    public var sid: String
    /// Secondary id: 4 hex digits, also derived from the path.
    public var ssid: String
    /// Album id: digits, the same for every track of one album in one folder.
    public var aid: String
    /// The path below the library root, `/`-separated, e.g. `Artist/Album/01 Song.mp3`.
    public var relativePath: String
    /// The file itself. Only the station's file provider opens it, by ``sid``.
    public var file: URL
    /// The lowercased file extension, one of ``songExtensions``.
    public var fileExtension: String
    /// Title from the tags, else from the file name.
    public var title: String
    /// Artist from the tags, else from the grandparent folder; may be empty.
    public var artist: String
    /// Album from the tags, else from the parent folder; may be empty.
    public var album: String
    /// Genre from the tags; empty when untagged. Names a channel when two tracks share it.
    public var genre: String
    /// Release year from the tags, `0` when unknown.
    public var year: Int
    /// Length in whole seconds as TagLib reads it.
    public var durationSeconds: Int
    /// Bitrate in kbit/s as TagLib reads it, `0` when unknown.
    public var bitrate: Int
    /// The file name of the track's cover in the station's cover store (`<16 hex>.jpg`),
    /// empty when it has none. Served at `/cover/<name>`, the song's `picture`.
    public var cover: String
    /// The artist lowercased, as facets key artists (computed once here: a playlist scores
    /// every track of a channel).
    private var artistKey: String
    /// The genre lowercased, as facets key genres.
    private var genreKey: String

    /// Creates a track.
    public init(sid: String, ssid: String, aid: String, relativePath: String, file: URL, fileExtension: String,
                title: String, artist: String, album: String, genre: String, year: Int,
                durationSeconds: Int, bitrate: Int, cover: String = "") {
        self.sid = sid
        self.ssid = ssid
        self.aid = aid
        self.relativePath = relativePath
        self.file = file
        self.fileExtension = fileExtension
        self.title = title
        self.artist = artist
        self.album = album
        self.genre = genre
        self.year = year
        self.durationSeconds = durationSeconds
        self.bitrate = bitrate
        self.cover = cover
        artistKey = artist.lowercased()
        genreKey = genre.lowercased()
    }

    /// The media route's file name for this track: `<sid>.<ext>`. The extension is part of
    /// the name so players that sniff by URL (and FileMiddleware's Content-Type) see it.
    public var mediaFileName: String { "\(sid).\(fileExtension)" }

    /// The Content-Type the media route serves for an extension the scanner accepts: audio
    /// files, and music videos (their sound is what an MP3 transcode carries; a player
    /// given the original can show the picture).
    package static let mediaTypes: [String: String] = [
        "mp3": "audio/mpeg", "ogg": "audio/ogg", "opus": "audio/opus", "flac": "audio/flac",
        "m4a": "audio/mp4", "wav": "audio/wav",
        "mp4": "video/mp4", "m4v": "video/x-m4v", "mkv": "video/x-matroska", "webm": "video/webm",
    ]

    /// The track's value for `facet` (the artist or genre lowercased, the album id), or nil
    /// when the tag is empty: nothing is learned about an empty tag.
    public func facetValue(_ facet: TrackFacet) -> String? {
        let value: String
        switch facet {
        case .artist: value = artistKey
        case .album: value = aid
        case .genre: value = genreKey
        }
        return value.isEmpty ? nil : value
    }

    /// The decade of ``year`` (1990 for 1994), or `nil` when the year is unknown or not
    /// plausible for a recording.
    package var decade: Int? {
        guard (1800...2999).contains(year) else { return nil }
        return year / 10 * 10
    }

    /// The file extensions the scanner picks up as songs, lowercased (any case matches).
    public static var songExtensions: Set<String> { Set(mediaTypes.keys) }
}
