import Radio

extension ErrorText {
    /// One line for a login from the dialog that did not happen: what went wrong and
    /// what to change before trying again (the dialog stays open for that).
    public static func describe(login problem: LoginProblem) -> String {
        switch problem {
        case .service(let failure):
            return describe(failure, for: .loginDialog)
        case .refused(let reason):
            return describe(.rejected(reason), for: .loginDialog)
        case .wrongPassword:
            return "Wrong password — type it again."
        case .unknownAccount:
            return "The station has no such account — check the e-mail address or user name."
        case .tooManyAttempts:
            return "Too many failed logins from this address — the station refuses logins for now; "
                + "wait about 15 minutes, then try again."
        case .wrongCaptcha(let reason):
            return "The captcha was wrong\(detail(reason)) — type the letters of the new one."
        case .noSession:
            return "Station accepted the login but handed out no session — check --server and --api (app or web)."
        case .storage(let reason):
            return "Could not write to the data directory\(detail(reason)) — "
                + "check that it is writable (--data-dir)."
        case .unavailable:
            return "Logging in is not available here — run `mhz login` instead."
        }
    }
}
