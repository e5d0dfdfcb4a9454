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
    public init(method: Method, url: URL, headers: [Header] = [], body: Data? = nil, isLogin: Bool = false) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.isLogin = isLogin
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
    public static func decode(_ text: String) -> [(String, String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { part in
            let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func unescape(_ s: Substring) -> String {
                let spaced = s.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (unescape(kv[0]), kv.count > 1 ? unescape(kv[1]) : "")
        }
    }
}
