/// The port through which the login dialog logs in. TerminalUI only collects answers;
/// the composition root implements this with its real login code (requests, captcha,
/// session storage) and switches the running radio to the new session.
///
/// Methods are called from tasks, never from the UI thread, so they may take as long as
/// the network does.
public protocol LoginService: Sendable {
    /// Where the login goes, for the dialog's title (a server URL, "the embedded station").
    var destination: String { get }
    /// Whether this server's login needs a captcha (the web family does).
    var needsCaptcha: Bool { get }

    /// Fetches a fresh captcha and renders it to fit `columns` × `rows` cells.
    func captcha(columns: Int, rows: Int) async throws(LoginProblem) -> LoginCaptcha

    /// Logs in with `answers` (the captcha answer belongs to the last captcha fetched),
    /// keeps the session and makes the radio use it from its next request on.
    ///
    /// - Returns: the name the station knows the listener by, for the status line.
    func logIn(_ answers: LoginAnswers) async throws(LoginProblem) -> String

    /// The dialog closed: forget whatever a captcha left behind (its saved image).
    func dialogClosed()
}
