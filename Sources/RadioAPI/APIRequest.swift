import Foundation

/// A request as RadioAPI builds it and the HTTP layer performs it: sans-I/O, so tests can
/// assert it byte for byte and the transport can be swapped.
public struct APIRequest: Sendable, Equatable {
    /// The HTTP method.
    public enum Method: String, Sendable {
        /// GET: every playlist and channel call.
        case get = "GET"
        /// POST with a form body: logins.
        case post = "POST"
    }

    /// The method.
    public var method: Method
    /// The full URL, query included.
    public var url: URL
    /// Extra request headers, in order.
    public var headers: [Header]
    /// The body (`application/x-www-form-urlencoded` for logins).
    public var body: Data?
    /// Whether it carries a password: such requests are never retried and never logged.
    public var isLogin: Bool
    /// Whether the station records it each time it arrives (a like, a skip: `e r u s b`).
    /// Never retried at once by the HTTP layer: a try whose answer was lost on the way back
    /// has been recorded, and every further try would be recorded again. The radio's
    /// report outbox tries it again, later, as one report.
    public var isFeedback: Bool

    /// One request header.
    public struct Header: Sendable, Equatable {
        /// The header name.
        public var name: String
        /// The header value.
        public var value: String

        /// Creates a header.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Creates a request.
    public init(method: Method, url: URL, headers: [Header] = [], body: Data? = nil, isLogin: Bool = false,
                isFeedback: Bool = false) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.isLogin = isLogin
        self.isFeedback = isFeedback
    }
}

/// Percent-encoding for query strings and form bodies: everything but RFC 3986's
/// unreserved characters is escaped, so `|` and `:` in `h` travel as `%7C` and `%3A`
/// exactly as the captured requests show (docs/PROTOCOL.md §3.4).
public enum FormEncoding {
    private static let unreserved = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Escapes one name or value.
    public static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// Joins pairs as `a=1&b=2`, in the given order.
    public static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// Splits `a=1&b=2` (a query or a form body) into decoded pairs; `+` means space.
    /// A value whose `%` escapes are malformed, or decode to bytes that are not UTF-8, is
    /// kept as sent (with `+` still read as a space).
    ///
    /// Byte by byte rather than through Foundation's string search and
    /// `removingPercentEncoding`: the station decodes every request's query, and those
    /// were a large part of a playlist answer's cost.
    public static func decode(_ text: String) -> [(String, String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { part in
            let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (unescape(kv[0]), kv.count > 1 ? unescape(kv[1]) : "")
        }
    }

    /// One name or value: `+` as a space, `%XX` as its byte.
    private static func unescape(_ text: Substring) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let high = utf8.index(after: index)
                let low = high == utf8.endIndex ? high : utf8.index(after: high)
                guard low != utf8.endIndex, let h = hexValue(utf8[high]), let l = hexValue(utf8[low]) else {
                    return spaced(utf8)
                }
                bytes.append(h << 4 | l)
                index = utf8.index(after: low)
                continue
            }
            bytes.append(byte == UInt8(ascii: "+") ? 0x20 : byte)
            index = utf8.index(after: index)
        }
        return String(validating: bytes, as: UTF8.self) ?? spaced(utf8)
    }

    /// The text as sent, but for `+` read as a space: what a value with malformed escapes
    /// decodes to.
    private static func spaced(_ utf8: Substring.UTF8View) -> String {
        String(decoding: utf8.map { $0 == UInt8(ascii: "+") ? 0x20 : $0 }, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
