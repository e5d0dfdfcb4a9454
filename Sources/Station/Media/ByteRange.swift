/// What a `Range` header asks of a body whose length is known (RFC 9110 §14): the media
/// route's answer to it for a transcode still being made, whose bytes the file middleware
/// cannot serve yet.
///
/// Only the first range of a list is served, as Hummingbird's `FileMiddleware` does for
/// files. A header that is not a well-formed `bytes=` range is ignored ("A server MAY ignore
/// the Range header field", §14.2), and the whole body is sent.
enum ByteRange: Sendable, Equatable {
    /// No usable range: the whole body, 200.
    case whole
    /// These bytes, 206 with `Content-Range: bytes first-last/length`.
    case part(ClosedRange<Int>)
    /// A first byte at or past the end (or an empty suffix): 416 with `Content-Range:
    /// bytes */length`.
    case unsatisfiable

    /// Reads `header` against a body of `length` bytes.
    init(header: String?, length: Int) {
        guard let header, header.hasPrefix("bytes=") else {
            self = .whole
            return
        }
        let spec = header.dropFirst("bytes=".count).prefix { $0 != "," }.filter { $0 != " " }
        guard let dash = spec.firstIndex(of: "-") else {
            self = .whole
            return
        }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        // Positions are digits only (`1*DIGIT`): no sign, no second dash.
        guard (first + last).allSatisfy({ $0.isASCII && $0.isNumber }) else {
            self = .whole
            return
        }
        if first.isEmpty {
            // `bytes=-N`: the last N bytes (§14.1.2).
            guard let count = Int(last) else {
                self = .whole
                return
            }
            self = count > 0 && length > 0 ? .part(max(0, length - count)...(length - 1)) : .unsatisfiable
            return
        }
        guard let start = Int(first), start >= 0 else {
            self = .whole
            return
        }
        if last.isEmpty {
            self = start < length ? .part(start...(length - 1)) : .unsatisfiable
            return
        }
        guard let end = Int(last), end >= start else {
            // "bytes=5-2" is invalid: ignored.
            self = .whole
            return
        }
        self = start < length ? .part(start...min(end, length - 1)) : .unsatisfiable
    }
}
