/// The `Set-Cookie` values of the web family (docs/PROTOCOL.md §5.2): `bid` from
/// `/j/new_captcha`, `dbcl2` (HttpOnly), `ck` and `fmNlogin` from a login, and the same
/// names expired by a logout. All for path `/`; a login without `remember=on` sets
/// session cookies.
enum WebCookies {
    /// `bid`: the browser id, set once per client.
    static func browserID(_ value: String) -> String {
        "bid=\"\(value)\"; Path=/; Max-Age=31536000"
    }

    /// Characters of a browser id, as Douban's (`"Xr3h8V5aLkQ"`).
    static let browserIDLength = 11

    /// A new browser id: ``browserIDLength`` ASCII letters and digits from the system's
    /// cryptographic generator (a browser's lists are its own: its id must not be guessed).
    static func newBrowserID() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<browserIDLength).map { _ in idAlphabet.randomElement(using: &generator) ?? "0" })
    }

    /// The browser id of a `bid` cookie as sent, when it has the shape of one
    /// (``browserIDLength`` ASCII letters and digits, quotes aside); else `nil`.
    static func browserID(cookie: String?) -> String? {
        guard let cookie else { return nil }
        let value = unquoted(cookie)
        guard value.utf8.count == browserIDLength, value.utf8.allSatisfy(isIDByte) else { return nil }
        return value
    }

    /// The characters of ids: ASCII letters and digits.
    static let idAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    private static func isIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return false
        }
    }

    /// The cookies of a new session.
    ///
    /// - Parameters:
    ///   - session: the login's token and check code.
    ///   - remember: keep them until the token expires (`remember=on`), else for the
    ///     browser session.
    ///   - now: the current Unix time, for `Max-Age`.
    static func login(_ session: WebSession, remember: Bool, now: Int) -> [String] {
        let lifetime = remember ? "; Max-Age=\(max(0, session.expires - now))" : ""
        return [
            "dbcl2=\"\(session.cookieValue)\"; Path=/; HttpOnly\(lifetime)",
            "ck=\"\(session.checkCode)\"; Path=/\(lifetime)",
            "fmNlogin=\"y\"; Path=/\(lifetime)",
        ]
    }

    /// The cookies a logout clears.
    static let logout = ["dbcl2=\"\"; Path=/; HttpOnly; Max-Age=0", "ck=\"\"; Path=/; Max-Age=0",
                         "fmNlogin=\"\"; Path=/; Max-Age=0"]

    /// A cookie value without the quotes it was set with.
    static func unquoted(_ value: String) -> String {
        guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return value }
        return String(value.dropFirst().dropLast())
    }
}
