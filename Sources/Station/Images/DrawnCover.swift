import Foundation
import MusicLibrary

/// The cover the station draws for an album whose files carry none, so every song's
/// `picture` shows something (Douban always sent one): a 240×240 grayscale PNG with bands
/// whose shade and angle follow the album id, and up to three letters of the album's name
/// (those ``BitmapFont`` can draw) in the middle.
///
/// Drawn once per album into the cover store's folder as `drawn-<aid>.png`, then served
/// like any cover; the same album always gets the same image.
enum DrawnCover {
    /// Pixel width and height.
    static let side = 240

    /// The cover's file name for an album.
    static func fileName(albumID: String) -> String {
        "drawn-\(albumID).png"
    }

    /// The album id a drawn cover's file name names, if `name` is one.
    static func albumID(inFileName name: String) -> String? {
        guard name.hasPrefix("drawn-"), name.hasSuffix(".png") else { return nil }
        let id = name.dropFirst(6).dropLast(4)
        guard !id.isEmpty, id.count <= 20, id.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return String(id)
    }

    /// The drawn cover of `track`'s album in `covers`' folder, drawn now if it is not there
    /// yet; `nil` when it cannot be written.
    static func file(for track: LibraryTrack, in covers: CoverStore) -> URL? {
        let file = covers.directory.appendingPathComponent(fileName(albumID: track.aid))
        if FileManager.default.fileExists(atPath: file.path) { return file }
        do {
            try FileManager.default.createDirectory(at: covers.directory, withIntermediateDirectories: true)
            // `.atomic` writes a temporary file and renames it: a reader never sees half an image.
            try png(albumID: track.aid, title: track.album.isEmpty ? track.title : track.album).write(to: file, options: .atomic)
            return file
        } catch {
            return nil
        }
    }

    /// The image itself.
    static func png(albumID: String, title: String) -> Data {
        let seed = TrackIdentity.hash(albumID)
        let base = 70 + Int(seed % 120)
        let period = 18 + Int((seed >> 8) % 24)
        let slant = Int((seed >> 16) % 3)
        var pixels = [UInt8](repeating: 0, count: side * side)
        for y in 0..<side {
            for x in 0..<side {
                let band = ((x + y * slant) / period) % 2
                pixels[y * side + x] = UInt8(base + band * 25)
            }
        }
        let letters = Array(title.uppercased().filter { BitmapFont.canDraw($0) }.prefix(3))
        let scale = 10
        let glyphWidth = (BitmapFont.width + 1) * scale
        var left = (side - glyphWidth * letters.count) / 2
        let top = (side - BitmapFont.height * scale) / 2
        for letter in letters {
            for row in 0..<BitmapFont.height {
                for column in 0..<BitmapFont.width where BitmapFont.isInk(letter, column: column, row: row) {
                    for dy in 0..<scale {
                        for dx in 0..<scale {
                            pixels[(top + row * scale + dy) * side + left + column * scale + dx] = 245
                        }
                    }
                }
            }
            left += glyphWidth
        }
        return PNGEncoder.grayscale(width: side, height: side, pixels: pixels)
    }
}
