import Foundation

/// Derives the wire ids of a track from where it lives, so they stay the same across scans,
/// restarts and machines: a listener's likes and trashes, and a client's stored history,
/// keep pointing at the same songs as long as the files stay where they are.
///
/// Douban's song ids are plain digits (`1382855`) and clients store them as text; album ids
/// are digits too, `ssid` is 4 hex digits (docs/PROTOCOL.md §4.2). The station keeps those
/// shapes. Hashing is FNV-1a (64 bit) over the path's UTF-8 in Unicode NFC, so a library
/// copied between file systems that normalize names differently keeps its ids.
package enum TrackIdentity {
    /// Song ids are 9 digits: wide enough that two paths of a 10 000-track library rarely
    /// collide (about 5 % chance of any collision), narrow enough to read aloud.
    package static let songIDRange: ClosedRange<UInt64> = 100_000_000...999_999_999
    /// Album ids are 7 digits, like Douban's subject ids.
    package static let albumIDRange: ClosedRange<UInt64> = 1_000_000...9_999_999

    /// Assigns a song id to every path.
    ///
    /// Collisions are resolved by probing upwards in the sorted order of the paths, so the
    /// result depends only on the set of paths (and the ids already taken): the same library
    /// always gets the same ids. The station pins every id it hands out (see
    /// ``LibraryIndex``), so adding a file never changes an existing one.
    ///
    /// - Parameters:
    ///   - relativePaths: paths below the library root, each once.
    ///   - taken: ids already pinned to other paths, which new paths must not get.
    /// - Returns: the id for each path.
    package static func songIDs(for relativePaths: [String], avoiding taken: Set<String> = []) -> [String: String] {
        var used = Set(taken.compactMap { UInt64($0) }.filter { songIDRange.contains($0) }
            .map { $0 - songIDRange.lowerBound })
        var ids: [String: String] = [:]
        let span = songIDRange.upperBound - songIDRange.lowerBound + 1
        for path in relativePaths.sorted() {
            var offset = hash(path) % span
            while used.contains(offset) { offset = (offset + 1) % span }
            used.insert(offset)
            ids[path] = String(songIDRange.lowerBound + offset)
        }
        return ids
    }

    /// The 4-hex-digit secondary id of a path; collisions are harmless (it is only ever
    /// sent next to the sid).
    package static func ssid(for relativePath: String) -> String {
        let bits = (hash("ssid:" + relativePath) >> 16) & 0xFFFF
        let hex = String(bits, radix: 16)
        return String(repeating: "0", count: 4 - hex.count) + hex
    }

    /// The album id shared by the tracks of one album: the album name (case-insensitive)
    /// in one folder. Two folders holding albums of the same name (two artists' "Greatest
    /// Hits") get different ids.
    package static func albumID(album: String, folder: String) -> String {
        let span = albumIDRange.upperBound - albumIDRange.lowerBound + 1
        let key = "album:" + folder + "\u{0}" + album.lowercased()
        return String(albumIDRange.lowerBound + hash(key) % span)
    }

    /// FNV-1a, 64 bit, over the NFC form's UTF-8: simple, fast and fixed forever (Swift's
    /// `Hasher` is seeded per process and must not be used for anything persistent).
    package static func hash(_ text: String) -> UInt64 {
        hash(bytes: text.precomposedStringWithCanonicalMapping.utf8)
    }

    /// FNV-1a, 64 bit, over raw bytes (cover images are named by it).
    package static func hash(bytes: some Sequence<UInt8>) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01B3
        }
        return value
    }
}
