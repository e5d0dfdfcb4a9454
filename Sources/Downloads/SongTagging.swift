import Foundation

/// Writes what a station said about a downloaded song into its file: the port through
/// which the downloads reach a tag library. The composition root gives one over the music
/// library's TagLib door; a ``SongFetcher`` without one keeps files as they came.
public protocol SongTagging: Sendable {
    /// Writes `tags` into the file at `path` (its extension names its type) where the
    /// container has room for them: ID3v2 in MP3, Vorbis comments in Ogg and FLAC, MP4
    /// atoms; WAV the text alone. Returns false when the file cannot be tagged: the song
    /// stays playable untagged. Blocking: it rewrites the file's header.
    func write(_ tags: SongTags, to path: String) -> Bool
}

/// A station's song as its file's tags say it. An empty text leaves that tag as the file
/// has it.
public struct SongTags: Sendable, Equatable {
    /// The title.
    public var title: String
    /// The artist.
    public var artist: String
    /// The album.
    public var album: String
    /// The year, when the station gave one.
    public var year: Int?
    /// The front cover, when the station has one.
    public var cover: Cover?

    /// A cover image.
    public struct Cover: Sendable, Equatable {
        /// The image's bytes.
        public var data: Data
        /// Their type: `image/jpeg` or `image/png`.
        public var mimeType: String

        /// Creates a cover.
        public init(data: Data, mimeType: String) {
            self.data = data
            self.mimeType = mimeType
        }
    }

    /// Creates the tags.
    public init(title: String, artist: String, album: String, year: Int?, cover: Cover?) {
        self.title = title
        self.artist = artist
        self.album = album
        self.year = year
        self.cover = cover
    }
}
