import Foundation

/// Where a track's lyrics are found: a sidecar file beside it (`NAME.lrc`, the same base
/// name, as players such as foobar2000 and mpv's scripts look for it), else the lyrics
/// embedded in its tags (``TagLibFile/lyrics``). Read when asked, not at scan time: few
/// songs are asked for, and a sidecar written after the scan is found at once.
package enum TrackLyrics {
    /// A sidecar past this size is not lyrics (LRC of a long song is a few KiB).
    static let sidecarLimit = 1 << 20

    /// The lyrics of the file at `file`: the sidecar's text, else the embedded lyrics, else
    /// nil. Blocking (file reads, TagLib): call it off the cooperative pool.
    package static func find(for file: URL) -> String? {
        if let text = sidecar(for: file) { return text }
        return TagLibFile.open(file.path) { $0.lyrics }.flatMap { $0 }
    }

    /// The sidecar's text: `NAME.lrc` (or `NAME.LRC`) beside the file, decoded as UTF-8
    /// (a byte order mark dropped), UTF-16 with its mark, else Latin-1 so that a file in
    /// an unknown code page still shows its time tags; nil when there is none, it is
    /// empty, or it is too large to be lyrics.
    package static func sidecar(for file: URL) -> String? {
        let base = file.deletingPathExtension()
        for candidate in [base.appendingPathExtension("lrc"), base.appendingPathExtension("LRC")] {
            guard let data = try? Data(contentsOf: candidate), !data.isEmpty, data.count <= sidecarLimit else { continue }
            let text = decode(data)
            if !text.allSatisfy({ $0.isWhitespace }) { return text }
        }
        return nil
    }

    /// Text of a sidecar's bytes, by its byte order mark, else UTF-8, else Latin-1.
    package static func decode(_ data: Data) -> String {
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { return String(decoding: data.dropFirst(3), as: UTF8.self) }
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]),
           let text = String(data: data, encoding: .utf16) {
            return text
        }
        if let text = String(data: data, encoding: .utf8) { return text }
        return String(data: data, encoding: .isoLatin1) ?? ""
    }
}
