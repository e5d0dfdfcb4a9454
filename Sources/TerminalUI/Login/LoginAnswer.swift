/// What the login service answered to a ``LoginRequest``, as the UI loop hands it back to
/// the dialog.
public enum LoginAnswer: Sendable, Equatable {
    /// A fresh captcha to show.
    case captcha(LoginCaptcha)
    /// No captcha could be fetched.
    case captchaFailed(LoginProblem)
    /// The login did not happen.
    case loginFailed(LoginProblem)
    /// Logged in; carries the name the station knows the listener by.
    case loggedIn(String)
}
