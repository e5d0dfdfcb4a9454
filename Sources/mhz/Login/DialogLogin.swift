import Foundation
import HTTP
import Logging
import Radio
import StationLink
import Synchronization
import TerminalUI

/// The terminal UI's login dialog, served by the same login code as `mhz login`
/// (``LoginFlow``): the captcha is fetched when the dialog opens and drawn as text rows
/// with chafa (else its saved file is named), the answers are posted once, and the new
/// session is saved, put in force for every later request (``ActiveSession/begin(_:)``)
/// and announced, so the radio asks again at once.
final class DialogLogin: LoginService {
    private let flow: LoginFlow
    private let session: ActiveSession
    private let sessions: SessionStore
    private let imageFile: URL
    private let state = Mutex<State>(State())

    private struct State {
        /// The id of the captcha on show: its answer goes with it.
        var captchaID: String?
        var onLoggedIn: @Sendable () -> Void = {}
    }

    /// Where the login goes, for the dialog's title.
    let destination: String

    /// A login service for `runtime`'s server whose sessions go into `session`.
    init(runtime: RadioRuntime, session: ActiveSession, logger: Logger) {
        flow = LoginFlow(runtime: runtime, logger: logger)
        self.session = session
        sessions = runtime.sessions
        imageFile = runtime.paths.dataDirectory.appendingPathComponent("captcha.jpg")
        destination = flow.serverName
    }

    /// The web family's login has a captcha.
    var needsCaptcha: Bool { flow.needsCaptcha }

    /// Sets what to do after a login succeeded (tell the radio and the front end).
    func onLoggedIn(_ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.onLoggedIn = action }
    }

    /// Fetches a captcha and draws it as text; without chafa the image stays saved in the
    /// data directory (mode 0600) until the dialog closes, and its path is shown.
    func captcha(columns: Int, rows: Int) async throws(LoginProblem) -> LoginCaptcha {
        let challenge: (id: String, image: Data)
        do {
            challenge = try await flow.captcha()
        } catch {
            throw Self.problem(error)
        }
        state.withLock { $0.captchaID = challenge.id }
        do throws(PrivateFile.Failure) {
            try PrivateFile.write(challenge.image, to: imageFile)
        } catch {
            throw .storage(error.words)
        }
        guard let picture = await CaptchaText.rows(of: imageFile, columns: columns, rows: rows) else {
            return .file(imageFile.path)
        }
        try? FileManager.default.removeItem(at: imageFile)
        return .picture(picture)
    }

    /// Logs in once with `answers`, saves the session and puts it in force.
    func logIn(_ answers: LoginAnswers) async throws(LoginProblem) -> String {
        let captchaID = state.withLock { state -> String? in
            defer { state.captchaID = nil }  // a captcha is good for one attempt
            return state.captchaID
        }
        var captcha: (id: String, solution: String)?
        if flow.needsCaptcha {
            guard let captchaID, let solution = answers.captcha else { throw .wrongCaptcha("") }
            captcha = (captchaID, solution)
        }
        let stored: StoredSession
        do {
            stored = try await flow.logIn(account: answers.account, password: answers.password, captcha: captcha)
        } catch {
            throw Self.problem(error)
        }
        do {
            try sessions.save(stored)
        } catch {
            throw .storage(error.description)
        }
        flow.logSuccess(stored)
        session.begin(stored.login)
        try? FileManager.default.removeItem(at: imageFile)
        state.withLock { $0.onLoggedIn }()
        return stored.userName.isEmpty ? stored.userID : stored.userName
    }

    /// Forgets the captcha and its saved image.
    func dialogClosed() {
        state.withLock { $0.captchaID = nil }
        try? FileManager.default.removeItem(at: imageFile)
    }

    /// The dialog's name for a login failure.
    static func problem(_ failure: LoginFailure) -> LoginProblem {
        switch failure {
        case .service(let failure):
            return .service(failure)
        case .refused("wrong_password"):
            return .wrongPassword
        case .refused("invalidate_email"), .refused("wrong_email"), .refused("invalid_user_name"):
            return .unknownAccount
        case .refused("too_many_attempts"), .refusedWithMessage(1020, _):
            return .tooManyAttempts
        case .refused(let word):
            return .refused(word)
        case .refusedWithMessage(1011, let message):
            return .wrongCaptcha(message)
        case .refusedWithMessage(let code, let message):
            return .refused([message, code.map { "error \($0)" }].compactMap { $0 }.filter { !$0.isEmpty }
                .joined(separator: ", "))
        case .noSessionCookie:
            return .noSession
        case .storage(let what):
            return .storage(what)
        }
    }
}
