import CTagLib
import CTagLibPictures
import Foundation
import Synchronization

/// Writes a downloaded song's tags with TagLib: title, artist, album, year and the cover,
/// where the container has room for them (ID3v2 in MP3, Vorbis comments in Ogg and FLAC,
/// MP4 atoms; WAV gets the text tags only).
///
/// TagLib's C binding keeps process-wide switches (string encoding and management); they
/// are set the same way as everywhere in mhz (UTF-8, management off, each string freed on
/// its own), and every call here holds one lock.
enum SongTagger {
    private static let lock = Mutex(())

    /// What to write.
    struct Tags {
        var title: String
        var artist: String
        var album: String
        var year: String
        /// Cover image bytes and their MIME type.
        var cover: (data: Data, mime: String)?
    }

    /// Tags the file at `path` (its extension tells TagLib the type). Returns false when
    /// TagLib cannot open or save it; the song stays playable untagged.
    static func write(_ tags: Tags, to path: String) -> Bool {
        lock.withLock { _ in
            taglib_set_strings_unicode(1)
            taglib_set_string_management_enabled(0)
            // "returns NULL if the file type cannot be determined or the file cannot be opened"
            guard let file = taglib_file_new(path) else { return false }
            defer { taglib_file_free(file) }
            guard taglib_file_is_valid(file) != 0, let tag = taglib_file_tag(file) else { return false }
            if !tags.title.isEmpty { taglib_tag_set_title(tag, tags.title) }
            if !tags.artist.isEmpty { taglib_tag_set_artist(tag, tags.artist) }
            if !tags.album.isEmpty { taglib_tag_set_album(tag, tags.album) }
            if let year = UInt32(tags.year.prefix(4)) { taglib_tag_set_year(tag, year) }
            if let cover = tags.cover, !cover.data.isEmpty {
                _ = cover.data.withUnsafeBytes { raw in
                    mhz_taglib_set_front_cover(UnsafeMutableRawPointer(file), raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                               raw.count, cover.mime)
                }
            }
            // "Saves the file to disk." Returns true on success.
            return taglib_file_save(file) != 0
        }
    }
}
