import Hummingbird

/// Who sent a request, beyond its parameters: the client's address (for ``TokenGuard``)
/// and the cookies the station reads (the web family's session).
struct RequestOrigin: Sendable, Equatable {
    /// The peer's IP address; nil for a request answered in-process.
    var address: String?
    /// The cookies the station reads (``readCookies``), values as sent (quotes kept).
    var cookies: [String: String]

    /// The cookies any route reads: the web session and the browser id.
    static let readCookies = ["dbcl2", "bid"]

    /// A request from `mhz`'s own process: no address, no cookies.
    static let inProcess = RequestOrigin(address: nil, cookies: [:])

    /// Creates an origin with the cookies given.
    init(address: String?, cookies: [String: String]) {
        self.address = address
        self.cookies = cookies
    }

    /// Creates an origin from the request's `Cookie` headers, as Hummingbird parses them.
    init(address: String?, cookies parsed: Cookies) {
        var read: [String: String] = [:]
        for name in Self.readCookies { read[name] = parsed[name]?.value }
        self.init(address: address, cookies: read)
    }
}
