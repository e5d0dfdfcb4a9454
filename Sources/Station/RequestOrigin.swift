/// Who sent a request, beyond its parameters: the client's address (for ``TokenGuard``)
/// and the cookies it sent (the web family's session).
struct RequestOrigin: Sendable, Equatable {
    /// The peer's IP address; nil for a request answered in-process.
    var address: String?
    /// The `Cookie` header's pairs, values as sent (quotes kept).
    var cookies: [String: String]

    /// A request from `mhz`'s own process: no address, no cookies.
    static let inProcess = RequestOrigin(address: nil, cookies: [:])

    /// Reads `Cookie` header values (`a=1; b="2"`); the first pair of a name wins, as
    /// browsers send the most specific cookie first.
    static func cookies(fromHeaders values: [String]) -> [String: String] {
        var cookies: [String: String] = [:]
        for header in values {
            for pair in header.split(separator: ";") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let name = String(pair[..<equals]).trimmingWhitespace()
                let value = String(pair[pair.index(after: equals)...]).trimmingWhitespace()
                if !name.isEmpty, cookies[name] == nil { cookies[name] = value }
            }
        }
        return cookies
    }
}
