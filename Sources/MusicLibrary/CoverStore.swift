import Foundation

/// The cover images of the library, one file per distinct image under `covers/` in the
/// station's data directory, named by a hash of their bytes: `<16 hex>.<jpg|png|gif>`.
///
/// Images are copied out of the tags (or the album folder) when a track is read, so serving
/// one never touches TagLib, every track of an album shares one file and one URL (a client
/// caches it once), and the picture route only ever opens names this store made. The
/// database keeps each track's file name; the files are a cache that a rescan refills.
package struct CoverStore: Sendable {
    /// The folder holding the images.
    package let directory: URL

    /// Images larger than this are ignored: a cover is a thumbnail for a terminal or a phone,
    /// and a 100 MB "cover" is a mistake or an attack on the data directory.
    package static let maximumSize = 16 << 20

    /// Content-Types of the image formats kept, by the extension they are stored under.
    package static let mediaTypes: [String: String] = ["jpg": "image/jpeg", "png": "image/png", "gif": "image/gif"]

    /// Names of album-folder images used when a file embeds no picture, most specific first
    /// (compared case-insensitively).
    package static let folderImageNames = ["cover", "folder", "front", "album"]

    /// Creates the store for a folder (created on first write).
    package init(directory: URL) {
        self.directory = directory
    }

    /// Keeps an image and returns its file name, or `nil` when the bytes are not a JPEG,
    /// PNG or GIF, are too large, or cannot be written.
    package func store(_ data: Data) -> String? {
        guard data.count <= Self.maximumSize, let type = Self.imageType(of: data) else { return nil }
        let hex = String(TrackIdentity.hash(bytes: data), radix: 16)
        let name = String(repeating: "0", count: 16 - hex.count) + hex + "." + type
        let target = directory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: target.path) { return name }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // Written under a temporary name and renamed, so a half-written image is never
            // served under the final one.
            let temporary = directory.appendingPathComponent(".partial-\(UUID().uuidString.prefix(8))-\(name)")
            try data.write(to: temporary)
            guard rename(temporary.path, target.path) == 0 else {
                try? FileManager.default.removeItem(at: temporary)
                return nil
            }
        } catch {
            return nil
        }
        return name
    }

    /// The file of a stored image name, or `nil` when the name is not one this store makes
    /// (so nothing else in the folder, and nothing outside it, can be reached).
    package func file(named name: String) -> URL? {
        let parts = name.split(separator: ".")
        guard parts.count == 2, parts[0].count == 16, parts[0].allSatisfy(\.isHexDigit),
              Self.mediaTypes[String(parts[1])] != nil
        else { return nil }
        return directory.appendingPathComponent(name)
    }

    /// Deletes stored images no track refers to any more.
    package func removeAll(except kept: Set<String>) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where !kept.contains(name) && file(named: name) != nil {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    /// The image format by its magic bytes: `jpg`, `png`, `gif`, or `nil`.
    package static func imageType(of data: Data) -> String? {
        let head = [UInt8](data.prefix(8))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        if head.starts(with: Array("GIF8".utf8)) { return "gif" }
        return nil
    }

    /// The album-folder image next to a file (`cover.jpg`, `Folder.png`, …), if any.
    ///
    /// - Parameter folder: the folder holding the track.
    package static func folderImage(in folder: URL) -> URL? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return nil }
        var byStem: [String: String] = [:]
        for name in names {
            let lower = name.lowercased()
            let stem = (lower as NSString).deletingPathExtension
            let type = (lower as NSString).pathExtension
            guard ["jpg", "jpeg", "png", "gif"].contains(type), byStem[stem] == nil else { continue }
            byStem[stem] = name
        }
        for stem in folderImageNames {
            if let name = byStem[stem] { return folder.appendingPathComponent(name) }
        }
        return nil
    }
}
