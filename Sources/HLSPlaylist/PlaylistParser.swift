import Foundation

/// Reads HLS playlists (RFC 8216) from text.
///
/// Tolerant where players are: CRLF line ends, white space around lines, a UTF-8 BOM,
/// blank and comment lines before `#EXTM3U` (and a second `#EXTM3U` later), unknown tags,
/// an `EXTINF` without its comma, tags between `EXTINF` and its URI, stray URI lines in a
/// master playlist, no final newline. Strict where guessing would download the wrong
/// thing: a body that is not a playlist, a variant without `BANDWIDTH` or without its URI,
/// an unreadable byte range, duration or IV.
///
/// Decisions where peers disagree, each for the reading that downloads what the author meant:
/// - an offset-less `EXT-X-BYTERANGE` continues after the previous segment's range, also
///   when the URI changed (hls.js, video.js);
/// - a URI line with no `EXTINF` before it is not a segment (EXTINF is REQUIRED, RFC 8216
///   §4.3.2.1; hls.js and m3u8 skip it), and an `EXTINF` with no URI after it is dropped;
/// - an `IV` of fewer than 32 hex digits is the same number left-padded with zeros;
/// - `EXT-X-MAP` takes no media sequence number; an encrypted MAP without an `IV` gets the
///   next segment's number (ffmpeg);
/// - `.//x` resolves to `…/dir//x` (RFC 3986 §5.2.4, as Foundation does).
public enum PlaylistParser {
    /// Parses `data` (UTF-8) fetched from `url`, the final URL after redirects, which
    /// relative URIs are resolved against.
    public static func parse(_ data: Data, url: URL) throws(PlaylistError) -> Playlist {
        var bytes = data
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard let text = String(data: bytes, encoding: .utf8), !text.contains("\u{0}") else {
            throw .notAPlaylist(firstLine: "binary data (\(data.count) bytes)")
        }
        return try parse(text, url: url)
    }

    /// Parses `text` fetched from `url`.
    public static func parse(_ text: String, url: URL) throws(PlaylistError) -> Playlist {
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        // `"\r\n"` is one Character in Swift: split on newline Characters, not on "\n".
        let lines = body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated().map { index, raw in
            Line(number: index + 1, text: raw.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard let first = lines.first(where: { !$0.text.isEmpty }) else { throw .empty }
        // Blank lines and comments may precede the header; nothing else may.
        guard let header = lines.firstIndex(where: { line in
            !line.text.isEmpty && !(line.text.hasPrefix("#") && !line.text.hasPrefix("#EXT"))
        }), lines[header].text.hasPrefix("#EXTM3U") else {
            throw .notAPlaylist(firstLine: String(first.text.prefix(100)))
        }
        let rest = lines[(header + 1)...].filter { !$0.text.isEmpty }
        if rest.contains(where: { $0.text.hasPrefix("#EXT-X-STREAM-INF") }) {
            return .master(try MasterReader.read(rest, base: url))
        }
        return .media(try MediaReader.read(rest, base: url))
    }

    /// One line of the playlist, trimmed, with its 1-based number for errors.
    struct Line {
        let number: Int
        let text: String

        /// The value after `tag:` when the line is that tag.
        func value(of tag: String) -> Substring? {
            guard text.hasPrefix(tag) else { return nil }
            let rest = text.dropFirst(tag.count)
            if rest.isEmpty { return rest }
            return rest.first == ":" ? rest.dropFirst() : nil
        }

        /// Whether it is a tag (`#EXT…`), as opposed to a comment or a URI.
        var isTag: Bool { text.hasPrefix("#EXT") }
        /// Whether it is a URI line.
        var isURI: Bool { !text.hasPrefix("#") }
    }

    /// `text` resolved against `base` (RFC 3986 §5.2); characters a URL may not hold
    /// (spaces, non-ASCII) are percent-encoded first, as browsers do.
    static func resolve(_ text: String, base: URL, line: Line) throws(PlaylistError) -> URL {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw .malformed(line: line.number, text: line.text, reason: .missingURI) }
        if let url = URL(string: trimmed, relativeTo: base)?.absoluteURL { return url }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~:/?#[]@!$&'()*+,;=%")
        guard let encoded = trimmed.addingPercentEncoding(withAllowedCharacters: allowed),
              let url = URL(string: encoded, relativeTo: base)?.absoluteURL
        else { throw .malformed(line: line.number, text: line.text, reason: .missingURI) }
        return url
    }

    /// An attribute list, or the error for `line`.
    static func attributes(_ text: Substring, line: Line) throws(PlaylistError) -> AttributeList {
        guard let list = AttributeList(text) else {
            throw .malformed(line: line.number, text: line.text, reason: .badAttributeList)
        }
        return list
    }
}
