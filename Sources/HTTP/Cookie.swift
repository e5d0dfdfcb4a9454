import Foundation

/// One cookie as libcurl's cookie engine holds it, read from and written to the Netscape
/// cookie-file format that libcurl itself uses for CURLOPT_COOKIEJAR and reports through
/// CURLINFO_COOKIELIST.
///
/// The format, one cookie per line, seven tab-separated fields (curl's `cookie.c`,
/// `get_netscape_format`): domain, "include subdomains" (`TRUE`/`FALSE`), path, secure
/// (`TRUE`/`FALSE`), expiry (Unix seconds, `0` for a session cookie), name, value. An
/// HttpOnly cookie has its domain prefixed with `#HttpOnly_`; any other line starting with
/// `#` is a comment.
public struct Cookie: Sendable, Equatable, CustomStringConvertible {
    /// The domain (`.douban.fm` for one that also matches subdomains, or a host).
    public var domain: String
    /// Whether subdomains of `domain` receive the cookie (the `Domain=` attribute was set).
    public var includesSubdomains: Bool
    /// The path prefix the cookie is sent for.
    public var path: String
    /// Sent over HTTPS only.
    public var secure: Bool
    /// When it stops being sent; `nil` for a session cookie.
    public var expires: Date?
    /// The name (`dbcl2`, `ck`, `bid`, …).
    public var name: String
    /// The value. Secret for session cookies: never log it.
    public var value: String
    /// Hidden from scripts in a browser; kept so the jar round-trips exactly.
    public var httpOnly: Bool

    /// Creates a cookie.
    public init(domain: String, includesSubdomains: Bool = false, path: String = "/", secure: Bool = false,
                expires: Date? = nil, name: String, value: String, httpOnly: Bool = false) {
        self.domain = domain
        self.includesSubdomains = includesSubdomains
        self.path = path
        self.secure = secure
        self.expires = expires
        self.name = name
        self.value = value
        self.httpOnly = httpOnly
    }

    private static let httpOnlyPrefix = "#HttpOnly_"

    /// Parses one line of the Netscape format; `nil` for comments, blank and broken lines.
    public init?(netscapeLine line: String) {
        var text = Substring(line.trimmingCharacters(in: CharacterSet(charactersIn: "\r\n")))
        var httpOnly = false
        if text.hasPrefix(Self.httpOnlyPrefix) {
            httpOnly = true
            text = text.dropFirst(Self.httpOnlyPrefix.count)
        } else if text.hasPrefix("#") || text.isEmpty {
            return nil
        }
        let fields = text.split(separator: "\t", omittingEmptySubsequences: false)
        // The value may be empty, but all seven fields must be there.
        guard fields.count >= 7, let seconds = Int64(fields[4]) else { return nil }
        self.init(domain: String(fields[0]), includesSubdomains: fields[1] == "TRUE", path: String(fields[2]),
                  secure: fields[3] == "TRUE",
                  expires: seconds == 0 ? nil : Date(timeIntervalSince1970: TimeInterval(seconds)),
                  name: String(fields[5]), value: fields[6...].joined(separator: "\t"), httpOnly: httpOnly)
    }

    /// The line in the Netscape format, as libcurl reads it back with CURLOPT_COOKIELIST.
    public var netscapeLine: String {
        let expiry = expires.map { String(Int64($0.timeIntervalSince1970)) } ?? "0"
        return [(httpOnly ? Self.httpOnlyPrefix : "") + domain, includesSubdomains ? "TRUE" : "FALSE", path,
                secure ? "TRUE" : "FALSE", expiry, name, value].joined(separator: "\t")
    }

    /// Whether the cookie has expired at `date` (session cookies never do while the jar
    /// lives).
    public func isExpired(at date: Date) -> Bool {
        guard let expires else { return false }
        return expires <= date
    }

    /// Name and domain only: the value is a secret and must not reach logs or messages.
    public var description: String { "\(name) (\(domain)\(path))" }
}
