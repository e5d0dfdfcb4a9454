import Foundation

/// The `LIST`/`INFO` tag of a WAVE file, read directly, because TagLib's C API cannot reach
/// it: in TagLib 1.x `RIFF::WAV::File::tag()` "Returns the ID3v2 Tag for this file. Note:
/// This method does not return all the tags for this file for backward compatibility",
/// and `tag_c.h` has no accessor for the Info tag. ffmpeg, sox and Windows write INFO, not
/// ID3v2, so without this most tagged WAV files would look untagged.
///
/// Only the chunk headers and the `LIST` chunk are read; the audio data is skipped by
/// seeking. Used as a fallback for fields the ID3v2 tag leaves empty.
package struct RIFFInfoTag: Sendable, Equatable {
    /// `INAM`.
    package var title = ""
    /// `IART`.
    package var artist = ""
    /// `IPRD` (the product, i.e. the album).
    package var album = ""
    /// `IGNR`.
    package var genre = ""
    /// The year from `ICRD` (creation date, `YYYY` or `YYYY-MM-DD`), `0` when absent.
    package var year = 0

    /// A list chunk larger than this is not a tag (and is not read into memory).
    private static let maximumListSize = 1 << 20

    /// Reads the INFO tag of a WAVE file; `nil` when the file is not RIFF/WAVE or has none.
    package init?(path: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 12), header.count == 12,
              header.prefix(4) == Data("RIFF".utf8), header.suffix(4) == Data("WAVE".utf8)
        else { return nil }
        var offset: UInt64 = 12
        var found = false
        while let chunk = try? handle.read(upToCount: 8), chunk.count == 8 {
            let size = Int(Self.uint32(chunk, at: 4))
            let body = offset + 8
            if chunk.prefix(4) == Data("LIST".utf8), size >= 4, size <= Self.maximumListSize,
               let list = try? handle.read(upToCount: size), list.count == size, list.prefix(4) == Data("INFO".utf8) {
                parse(list.dropFirst(4))
                found = true
            }
            // Chunks are padded to an even size.
            offset = body + UInt64(size) + UInt64(size & 1)
            guard (try? handle.seek(toOffset: offset)) != nil else { break }
        }
        guard found else { return nil }
    }

    /// Reads the sub-chunks of an INFO list.
    private mutating func parse(_ fields: Data) {
        var index = fields.startIndex
        while index + 8 <= fields.endIndex {
            let id = String(decoding: fields[index..<index + 4], as: UTF8.self)
            let size = Int(Self.uint32(fields, at: index - fields.startIndex + 4))
            let start = index + 8
            let end = min(start + size, fields.endIndex)
            let text = Self.text(fields[start..<end])
            switch id {
            case "INAM": title = text
            case "IART": artist = text
            case "IPRD": album = text
            case "IGNR": genre = text
            case "ICRD": year = Int(text.prefix(4)) ?? 0
            default: break
            }
            index = start + size + (size & 1)
        }
    }

    /// INFO strings are NUL-terminated with no declared encoding: UTF-8 as ffmpeg writes
    /// it, else Latin-1 as older tools did.
    private static func text(_ bytes: Data) -> String {
        let trimmed = bytes.prefix { $0 != 0 }
        let decoded = String(data: trimmed, encoding: .utf8) ?? String(data: trimmed, encoding: .isoLatin1) ?? ""
        return decoded.trimmingWhitespace()
    }

    /// A little-endian 32-bit value at a position relative to the data's start.
    private static func uint32(_ data: Data, at position: Int) -> UInt32 {
        let base = data.startIndex + position
        return (0..<4).reduce(UInt32(0)) { $0 | UInt32(data[base + $1]) << (8 * $1) }
    }
}
