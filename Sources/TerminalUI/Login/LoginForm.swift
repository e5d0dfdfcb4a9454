/// The login dialog's state as plain values: the fields, which one has focus, the captcha
/// shown, and whether the dialog waits for the station. Keys go in, requests for the
/// ``LoginService`` come out; no terminal, no network, so every rule is tested directly.
///
/// Keys: printable characters (CJK from an input method too) go into the focused field;
/// Backspace deletes one character, Ctrl-U the whole field; Tab and ↓ move to the next
/// field, ↑ to the previous; Enter moves to the first empty field, or submits when none
/// is empty; Esc cancels.
public struct LoginForm: Sendable, Equatable {
    /// A field of the form.
    public enum Field: Sendable, Equatable, CaseIterable {
        /// E-mail address or user name.
        case account
        /// The password, never shown.
        case password
        /// The captcha's letters (web family only).
        case captcha
    }

    /// What the dialog is doing.
    public enum Phase: Sendable, Equatable {
        /// Waiting for the listener.
        case editing
        /// Waiting for a captcha (typing goes on meanwhile; submitting waits).
        case fetchingCaptcha
        /// Waiting for the station's answer to the login; keys other than Esc are ignored.
        case submitting
    }

    /// Where the login goes (shown in the title).
    public let destination: String
    /// Whether the form has a captcha field.
    public let needsCaptcha: Bool
    /// The account typed so far.
    public private(set) var account = ""
    /// The password typed so far. Only `LoginDialogView` reads it, to count bullets.
    public private(set) var password = ""
    /// The captcha answer typed so far.
    public private(set) var captchaAnswer = ""
    /// The field keys go to.
    public private(set) var focus = Field.account
    /// The captcha on show, once fetched.
    public private(set) var captcha: LoginCaptcha?
    /// What the dialog is doing.
    public private(set) var phase: Phase
    /// Why the last attempt failed, shown until the next one.
    public private(set) var problem: LoginProblem?

    /// A fresh form. With a captcha it starts fetching one: send ``LoginRequest/captcha``.
    public init(destination: String, needsCaptcha: Bool) {
        self.destination = destination
        self.needsCaptcha = needsCaptcha
        phase = needsCaptcha ? .fetchingCaptcha : .editing
    }

    /// The fields in order.
    public var fields: [Field] { needsCaptcha ? Field.allCases : [.account, .password] }

    /// The text of a field.
    public func text(of field: Field) -> String {
        switch field {
        case .account: account
        case .password: password
        case .captcha: captchaAnswer
        }
    }

    /// Applies one key press; a request is for the ``LoginService``, with the dialog kept open.
    public mutating func handle(_ key: Key) -> ViewOutcome<LoginRequest> {
        if key == .escape { return .close }
        if phase == .submitting { return .stay }
        switch key {
        case .character(let character):
            edit { $0.append(character) }
        case .backspace:
            edit { if !$0.isEmpty { $0.removeLast() } }
        case .control("u"):
            edit { $0.removeAll() }
        case .tab, .down:
            move(by: 1)
        case .up:
            move(by: -1)
        case .enter:
            return enter()
        default:
            break
        }
        return .stay
    }

    /// The captcha arrived: show it, with an empty answer field.
    public mutating func captchaArrived(_ captcha: LoginCaptcha) {
        self.captcha = captcha
        captchaAnswer = ""
        if phase == .fetchingCaptcha { phase = .editing }
    }

    /// No captcha could be fetched: say why; Enter asks again.
    public mutating func captchaFailed(_ problem: LoginProblem) {
        self.problem = problem
        captcha = nil
        if phase == .fetchingCaptcha { phase = .editing }
    }

    /// The login failed: say why, put the focus on the field that was most likely wrong
    /// (emptied when it is the password or captcha), and with a captcha ask for a new
    /// one, since the station accepts each captcha once.
    ///
    /// - Returns: the request to make next, if any.
    public mutating func loginFailed(_ problem: LoginProblem) -> LoginRequest? {
        self.problem = problem
        phase = .editing
        switch problem {
        case .wrongPassword:
            password = ""
            focus = .password
        case .unknownAccount:
            focus = .account
        case .wrongCaptcha:
            focus = .captcha
        default:
            break
        }
        guard needsCaptcha else { return nil }
        captchaAnswer = ""
        captcha = nil
        phase = .fetchingCaptcha
        if problem != .wrongPassword && problem != .unknownAccount { focus = .captcha }
        return .captcha
    }

    // MARK: - Keys

    private mutating func edit(_ change: (inout String) -> Void) {
        switch focus {
        case .account: change(&account)
        case .password: change(&password)
        case .captcha: change(&captchaAnswer)
        }
    }

    private mutating func move(by step: Int) {
        let order = fields
        let index = order.firstIndex(of: focus) ?? 0
        focus = order[(index + step + order.count) % order.count]
    }

    private mutating func enter() -> ViewOutcome<LoginRequest> {
        if needsCaptcha && captcha == nil {
            // The fetch failed: Enter asks again (while one runs, it waits).
            guard phase == .editing else { return .stay }
            phase = .fetchingCaptcha
            problem = nil
            return .send(.captcha)
        }
        // Spaces count in a password, not around an account or a captcha answer.
        let empty = fields.first { field in
            field == .password ? password.isEmpty : Self.trimmed(text(of: field)).isEmpty
        }
        if let empty {
            focus = empty
            return .stay
        }
        guard phase == .editing else { return .stay }
        phase = .submitting
        problem = nil
        let answers = LoginAnswers(account: Self.trimmed(account), password: password,
                                   captcha: needsCaptcha ? Self.trimmed(captchaAnswer) : nil)
        return .send(.submit(answers))
    }

    private static func trimmed(_ text: String) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}

/// What the login dialog asks of the ``LoginService``.
public enum LoginRequest: Sendable, Equatable {
    /// Fetch a new captcha.
    case captcha
    /// Log in with these answers.
    case submit(LoginAnswers)
}
