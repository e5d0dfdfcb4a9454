import Foundation

/// Where a playable file is and which version of it: a rescan rereads a file only when its
/// size or modification time differs from what it read last time.
struct FileStamp: Sendable, Equatable {
    /// The path below the library root.
    var relativePath: String
    /// Size in bytes.
    var size: Int64
    /// Modification time in nanoseconds since 1970.
    var modified: Int64
}

/// What TagLib reads from one file, before path names fill the gaps.
struct TrackMetadata: Sendable, Equatable {
    /// Title tag, trimmed; may be empty.
    var title: String
    /// Artist tag; may be empty.
    var artist: String
    /// Album tag; may be empty.
    var album: String
    /// Genre tag; may be empty.
    var genre: String
    /// Year, `0` when unset.
    var year: Int
    /// Length in whole seconds.
    var duration: Int
    /// Bitrate in kbit/s, `0` when unknown.
    var bitrate: Int
    /// The embedded cover's bytes, when asked for and present.
    var cover: Data?
}
