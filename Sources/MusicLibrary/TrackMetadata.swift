import Foundation

/// Where a playable file is and which version of it: a rescan rereads a file only when its
/// size or modification time differs from what it read last time.
package struct FileStamp: Sendable, Equatable {
    /// The path below the library root.
    package var relativePath: String
    /// Size in bytes.
    package var size: Int64
    /// Modification time in nanoseconds since 1970.
    package var modified: Int64
}

/// What TagLib (or a ``MediaTagReader``) reads from one file, before path names fill the gaps.
package struct TrackMetadata: Sendable, Equatable {
    /// Title tag, trimmed; may be empty.
    package var title: String
    /// Artist tag; may be empty.
    package var artist: String
    /// Album tag; may be empty.
    package var album: String
    /// Genre tag; may be empty.
    package var genre: String
    /// Year, `0` when unset.
    package var year: Int
    /// Length in whole seconds.
    package var duration: Int
    /// Bitrate in kbit/s, `0` when unknown.
    package var bitrate: Int
    /// The embedded cover's bytes, when asked for and present.
    package var cover: Data?

    /// Creates the metadata of one file.
    package init(title: String, artist: String, album: String, genre: String, year: Int, duration: Int,
                 bitrate: Int, cover: Data?) {
        self.title = title
        self.artist = artist
        self.album = album
        self.genre = genre
        self.year = year
        self.duration = duration
        self.bitrate = bitrate
        self.cover = cover
    }
}
