/// The `Set-Cookie` values of the web family (docs/PROTOCOL.md §5.2): `bid` from
/// `/j/new_captcha`, `dbcl2` (HttpOnly), `ck` and `fmNlogin` from a login, and the same
/// names expired by a logout. All for path `/`; a login without `remember=on` sets
/// session cookies.
enum WebCookies {
    /// `bid`: the browser id, set once per client.
    static func browserID(_ value: String) -> String {
        "bid=\"\(value)\"; Path=/; Max-Age=31536000"
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
