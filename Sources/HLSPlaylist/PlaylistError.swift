/// Why a playlist could not be read or used: the HLS parser's one error type. Each case
/// carries what a caller needs to write one line (the line number and text at fault).
public enum PlaylistError: Error, Sendable, Equatable {
    /// The body is empty (or only white space).
    case empty
    /// The body is not an HLS playlist: an HTML page, text without `#EXTM3U`, binary data.
    /// `firstLine` is its start (at most 100 characters).
    case notAPlaylist(firstLine: String)
    /// Line `line` (1-based) breaks a rule the parser cannot guess past.
    case malformed(line: Int, text: String, reason: Reason)
    /// Encryption a downloader cannot undo (see ``MediaPlaylist/checkDecryptable()``).
    case unsupportedEncryption(method: String, keyFormat: String?)

    /// The rule a malformed line breaks.
    public enum Reason: String, Sendable, Equatable {
        /// An attribute list that cannot be read (an unterminated quote, no `=`).
        case badAttributeList
        /// `EXT-X-STREAM-INF` without `BANDWIDTH`.
        case missingBandwidth
        /// A tag that needs a URI (`EXT-X-STREAM-INF`'s next line, `EXT-X-MAP`, an AES-128
        /// key) has none, or one that is not a URI.
        case missingURI
        /// `EXT-X-BYTERANGE` that is not `LENGTH[@OFFSET]`.
        case badByteRange
        /// `EXTINF` or `EXT-X-TARGETDURATION` whose duration is not a number of seconds
        /// from 0 to ``MediaPlaylist/longestDuration``.
        case badDuration
        /// `IV` that is not `0x` and at most 32 hex digits.
        case badIV
        /// A number attribute or tag value that is not a number.
        case badNumber
    }
}
