import CTagLib
import CTagLibPictures
import Foundation

/// One audio file opened through TagLib's C binding (`tag_c.h`, TagLib 1.13) and its C++
/// picture API (`CTagLibPictures`): the only place in mhz that calls TagLib. The library
/// scan reads through it, the demo library tags its tracks, and the command line writes a
/// downloaded song's tags through it (the downloads' `SongTagging` port).
///
/// TagLib's C API keeps process-wide state: the string encoding switch, the string
/// management switch and, while management is on, one global list of every string handed
/// out ("TagLib can keep track of strings that are created when outputting tag values and
/// clear them using taglib_tag_clear_strings()"). `taglib_tag_free_strings()` frees that
/// whole list, including strings another thread is still reading. So management is turned
/// off once, before any file is opened, each string is released on its own with
/// `taglib_free` ("Explicitly free a string returned from TagLib"), and every use of a file
/// happens inside ``open(_:_:)``, on the one thread that opened it. With that, threads work
/// on files of their own at the same time: TagLib keeps a file's state in its `File`
/// object, and the C++ library's shared values (empty strings, frame factories) are
/// reference counted atomically. The library scan reads on every core this way.
package final class TagLibFile {
    /// Sets the C API's process-wide switches, once, before the first file is opened.
    private static let configured: Void = {
        // "By default all strings coming into or out of TagLib's C API are in UTF8": set
        // anyway, the switch is global.
        taglib_set_strings_unicode(1)
        taglib_set_string_management_enabled(0)
    }()

    /// The C binding's file, for the extensions reaching TagLib's C++ API with it.
    let handle: UnsafeMutablePointer<TagLib_File>

    private init(handle: UnsafeMutablePointer<TagLib_File>) {
        self.handle = handle
    }

    /// Opens the file at `path`, lets `body` read or write it, and closes it again, on the
    /// calling thread.
    ///
    /// The type is chosen from the file name's extension ("TagLib will try to guess the file
    /// type"), which is how `.wav`, `.opus` and `.m4a` are reached: the C enum of
    /// `taglib_file_new_type` in 1.13 has no WAV or Opus member.
    ///
    /// - Returns: what `body` returned, or `nil` when TagLib cannot open the file or finds no
    ///   valid tag or audio properties in it (`taglib_file_is_valid`).
    package static func open<T>(_ path: String, _ body: (TagLibFile) throws -> T) rethrows -> T? {
        Self.configured
        // "returns NULL if the file type cannot be determined or the file cannot be opened"
        guard let raw = taglib_file_new(path) else { return nil }
        // "Frees and closes the file." The tag and audio properties pointers die with it.
        defer { taglib_file_free(raw) }
        guard taglib_file_is_valid(raw) != 0 else { return nil }
        return try body(TagLibFile(handle: raw))
    }

    // MARK: - Reading

    /// The title tag, trimmed; empty when unset.
    package var title: String { string(taglib_tag_title) }
    /// The artist tag, trimmed; empty when unset.
    package var artist: String { string(taglib_tag_artist) }
    /// The album tag, trimmed; empty when unset.
    package var album: String { string(taglib_tag_album) }
    /// The genre tag, trimmed; empty when unset.
    package var genre: String { string(taglib_tag_genre) }

    /// The year, or `0` ("Returns the tag's year or 0 if year is not set").
    package var year: Int {
        guard let tag = taglib_file_tag(handle) else { return 0 }
        return Int(taglib_tag_year(tag))
    }

    /// The length in whole seconds ("Returns the length of the file in seconds"), `0` when
    /// the file has no audio properties.
    package var durationSeconds: Int {
        guard let properties = taglib_file_audioproperties(handle) else { return 0 }
        return Int(taglib_audioproperties_length(properties))
    }

    /// The bitrate in kbit/s ("Returns the bitrate of the file in kb/s"), `0` when unknown.
    package var bitrate: Int {
        guard let properties = taglib_file_audioproperties(handle) else { return 0 }
        return Int(taglib_audioproperties_bitrate(properties))
    }

    /// The embedded front cover (else the first embedded picture), as stored: JPEG, PNG or
    /// whatever the tagger put there. `nil` when the file has none.
    ///
    /// TagLib's C binding has no picture API, so this goes through its C++ API in
    /// `CTagLibPictures`, on this same open file, on the thread that opened it.
    package var frontCover: Data? {
        var bytes: UnsafeMutablePointer<UInt8>?
        var count = 0
        // "Returns 1 and sets *data and *size when a picture was found … the caller frees
        // with free()."
        guard mhz_taglib_front_cover(UnsafeMutableRawPointer(handle), &bytes, &count) == 1, let bytes else {
            return nil
        }
        defer { free(bytes) }
        return Data(bytes: bytes, count: count)
    }

    /// Reads one string field and releases TagLib's copy of it.
    private func string(_ read: (UnsafePointer<TagLib_Tag>?) -> UnsafeMutablePointer<CChar>?) -> String {
        // "Returns a pointer to the tag associated with this file. This will be freed
        // automatically when the file is freed."
        guard let tag = taglib_file_tag(handle), let chars = read(UnsafePointer(tag)) else { return "" }
        // With string management disabled, the caller owns the returned copy.
        defer { taglib_free(chars) }
        return String(cString: chars).trimmingWhitespace()
    }

    // MARK: - Writing

    /// Sets the common tag fields; `year` 0 clears the year ("0 indicates that this field
    /// should be cleared"). Takes effect on ``save()``.
    package func setTags(title: String, artist: String, album: String, genre: String, year: Int) {
        guard let tag = taglib_file_tag(handle) else { return }
        title.withCString { taglib_tag_set_title(tag, $0) }
        artist.withCString { taglib_tag_set_artist(tag, $0) }
        album.withCString { taglib_tag_set_album(tag, $0) }
        genre.withCString { taglib_tag_set_genre(tag, $0) }
        taglib_tag_set_year(tag, UInt32(clamping: year))
    }

    /// Sets the fields given and leaves the others as the file has them: an empty text or a
    /// nil year is not written. Takes effect on ``save()``.
    ///
    /// - Returns: false when the file has no tag to write to.
    package func update(title: String, artist: String, album: String, year: Int?) -> Bool {
        guard let tag = taglib_file_tag(handle) else { return false }
        if !title.isEmpty { title.withCString { taglib_tag_set_title(tag, $0) } }
        if !artist.isEmpty { artist.withCString { taglib_tag_set_artist(tag, $0) } }
        if !album.isEmpty { album.withCString { taglib_tag_set_album(tag, $0) } }
        if let year { taglib_tag_set_year(tag, UInt32(clamping: year)) }
        return true
    }

    /// Replaces the embedded pictures with one front cover (`data`, of `mimeType`:
    /// `image/jpeg` or `image/png`). Takes effect on ``save()``.
    ///
    /// - Returns: whether the container took it ("0 when it has no place for one": WAV).
    @discardableResult
    package func setFrontCover(_ data: Data, mimeType: String) -> Bool {
        data.withUnsafeBytes { raw in
            mhz_taglib_set_front_cover(UnsafeMutableRawPointer(handle), raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                       raw.count, mimeType) == 1
        }
    }

    /// Writes the tags to disk ("Saves the file to disk").
    ///
    /// - Returns: whether TagLib reported success.
    package func save() -> Bool {
        taglib_file_save(handle) != 0
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines; tags written by
    /// hand often carry them, and they would split genres into look-alike channels.
    package func trimmingWhitespace() -> String {
        let isBlank: (Character) -> Bool = { $0.isWhitespace || $0 == "\u{0}" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(self[first...last])
    }
}
