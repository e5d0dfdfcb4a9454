import Radio

/// Why a login from the dialog did not happen, typed, so ``ErrorText`` words it like
/// every other failure. The composition root maps its login code's failures onto these;
/// TerminalUI never sees the network types.
public enum LoginProblem: Error, Sendable, Equatable {
    /// The station could not be asked, or answered with an HTTP error or garbage.
    case service(ServiceFailure)
    /// The station knows the account but not with this password.
    case wrongPassword
    /// The station has no such account (e-mail address or user name).
    case unknownAccount
    /// The captcha's letters were wrong; carries the station's words, if any.
    case wrongCaptcha(String)
    /// The station refuses every login from this address for a while, after too many
    /// failed ones (mhz's station: the app family's `too_many_attempts`, the web family's
    /// error 1020; a quarter of an hour without another try lifts it).
    case tooManyAttempts
    /// The station refused for another reason; carries its words (`wrong_version`,
    /// a web `err_msg`).
    case refused(String)
    /// The station said yes but handed out nothing that could be kept as a session.
    case noSession
    /// A file in the data directory (the session, the captcha image) could not be
    /// written; carries the file and the reason.
    case storage(String)
    /// Login is not possible here (no way to reach the login code).
    case unavailable
}
