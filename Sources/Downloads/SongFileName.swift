import Foundation

/// The file name a downloaded song gets: `Artist - Title.ext`, safe on any file system a
/// music folder ends up on (ext4, FAT and exFAT on a player or SD card, NTFS, SMB shares),
/// with every letter kept (CJK, accents, emoji).
public enum SongFileName {
    /// Longest name in UTF-8 bytes, extension included: ext4 and most others allow 255; a
    /// margin leaves room for ` (2)` and the `.part` suffix.
    static let maxBytes = 200

    /// `Artist - Title.ext` made safe; `Title.ext` without an artist, `Unknown.ext` without either.
    public static func make(artist: String, title: String, extension ext: String) -> String {
        let artist = clean(artist), title = clean(title)
        var stem = [artist, title].filter { !$0.isEmpty }.joined(separator: " - ")
        if stem.isEmpty { stem = "Unknown" }
        let suffix = "." + (clean(ext).isEmpty ? "mp3" : clean(ext).lowercased())
        stem = truncate(stem, toBytes: maxBytes - suffix.utf8.count)
        // Windows refuses device names as names, whatever the extension ("CON.mp3").
        let reserved = Set(["CON", "PRN", "AUX", "NUL"] + (1...9).flatMap { ["COM\($0)", "LPT\($0)"] })
        if reserved.contains(stem.uppercased()) { stem = "_" + stem }
        return stem + suffix
    }

    /// `name` with ` (2)`, ` (3)`… before its extension: the `n`th name tried when the first is taken.
    public static func numbered(_ name: String, _ n: Int) -> String {
        guard n > 1 else { return name }
        let ext = (name as NSString).pathExtension
        let stem = ext.isEmpty ? name : String(name.dropLast(ext.count + 1))
        return "\(stem) (\(n))" + (ext.isEmpty ? "" : ".\(ext)")
    }

    /// The extension a media URL's path names (lowercased), when it is one mhz can tag or play.
    public static func mediaExtension(of url: String) -> String? { mediaExtension(of: URL(string: url)) }

    /// The extension a parsed media URL's path names (lowercased), when it is one mhz can tag or play.
    public static func mediaExtension(of link: URL?) -> String? {
        let ext = (link?.pathExtension ?? "").lowercased()
        let known: Set<String> = ["mp3", "m4a", "mp4", "aac", "flac", "ogg", "oga", "opus", "wav", "wma", "webm", "mka"]
        return known.contains(ext) ? ext : nil
    }

    /// Replaces what some file system refuses: `/` and NUL everywhere, `\ : * ? " < > |` on
    /// FAT and NTFS, control characters; collapses runs of spaces; trims the spaces and dots
    /// Windows drops from the end and the dots that would hide the file.
    static func clean(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || "/\\:*?\"<>|".unicodeScalars.contains(scalar) {
                out.unicodeScalars.append("_")
            } else if scalar.properties.isWhitespace {
                if !out.hasSuffix(" ") { out.append(" ") }
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        var trimmed = Substring(out)
        while let last = trimmed.last, last == " " || last == "." { trimmed.removeLast() }
        while let first = trimmed.first, first == " " || first == "." { trimmed.removeFirst() }
        return String(trimmed)
    }

    /// The longest prefix of whole characters that fits in `bytes` UTF-8 bytes.
    static func truncate(_ text: String, toBytes bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var out = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            if used + size > bytes { break }
            out.append(character)
            used += size
        }
        while let last = out.last, last == " " || last == "." { out.removeLast() }
        return out
    }
}
