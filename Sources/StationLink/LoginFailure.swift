import Radio

/// Why a login or logout did not happen, typed, so the command line (and later the
/// terminal UI's login dialog) can word it; the command line's `LoginText` does the wording.
public enum LoginFailure: Error, Equatable, Sendable {
    /// The server could not be asked, or answered with an HTTP error or garbage.
    case service(ServiceFailure)
    /// The app family refused with an error word (`wrong_password`, `invalidate_email`,
    /// `invalid_user_name`, `wrong_email`, `wrong_version`; docs/PROTOCOL.md §5.1).
    case refused(String)
    /// The web family refused with its own words (`err_no`/`err_msg`; e.g. 1011
    /// "验证码不正确", the captcha was wrong).
    case refusedWithMessage(code: Int?, message: String)
    /// The web login said yes but set no session cookie, so nothing could be kept.
    case noSessionCookie
    /// The session could not be written or deleted; carries the file and the reason.
    case storage(String)
}
