/// What can be wrong with an answer from a radio server, as RadioAPI sees it: bytes in,
/// typed failure out. Transport failures belong to the HTTP layer, not here.
public enum APIError: Error, Sendable, Equatable {
    /// The body was empty where JSON was required.
    case emptyBody
    /// The body is not JSON at all (an HTML error page, a captive portal, binary). Carries
    /// the first characters, printable, for the log.
    case notJSON(prefix: String)
    /// JSON, but not the expected shape (truncated, wrong types). Carries the decoder's
    /// description of where it went wrong.
    case malformed(String)
    /// The body is not valid UTF-8.
    case invalidEncoding
    /// The server answered `r != 0` with this error word (`wrong_version`, …).
    case server(String)
    /// The server refused in-band with a number and its own words (`err_no`/`err_msg`,
    /// e.g. 1011 "验证码不正确", wrong captcha); the message may be empty.
    case refused(code: Int?, message: String)
    /// The login token is no longer accepted (`{"r":1,"err":"expired"}`): log in again.
    case expired
}
