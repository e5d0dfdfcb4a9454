import HLSPlaylist

/// An HLS playlist's faults in words, for every line that names one: a download's, a live
/// channel's. The parser's own case names never reach a line.
enum PlaylistText {
    /// The RFC 8216 rule a playlist line breaks.
    static func rule(_ reason: PlaylistError.Reason) -> String {
        switch reason {
        case .missingURI: "a tag that needs a URI has none"
        case .missingBandwidth: "a variant without BANDWIDTH"
        case .badIV: "an IV that is not 32 hex digits"
        case .badByteRange: "a byte range that is not LENGTH[@OFFSET]"
        case .badDuration: "a duration that is not a number of seconds"
        case .badAttributeList: "an attribute list that cannot be read"
        case .badNumber: "a value that must be a whole number is not one, or is too large"
        }
    }

    /// What is wrong with a playlist, after the playlist's name or address.
    static func words(_ error: PlaylistError) -> String {
        switch error {
        case .empty: "the playlist is empty"
        case .notAPlaylist(let first): "not an HLS playlist (it starts \"\(first.prefix(60))\")"
        case .malformed(let line, let text, let reason):
            "the playlist is broken at line \(line) (\(rule(reason))): \"\(text.prefix(80))\""
        case .unsupportedEncryption(let method, let format):
            "the stream is encrypted with \(method)\(format.map { " with key format \($0)" } ?? ""), which mhz cannot decrypt"
        }
    }
}
