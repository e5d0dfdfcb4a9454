import Radio

extension ErrorText {
    /// One line for a login from the dialog that did not happen: what went wrong and
    /// what to change before trying again (the dialog stays open for that).
    public static func describe(login problem: LoginProblem) -> String {
        switch problem {
        case .service(.unreachable(let reason)):
            return "Station unreachable\(detail(reason)) — check your network, then try again."
        case .service(.untrusted(let reason)):
            return "Station's TLS certificate is not trusted\(detail(reason)) — check --server; set "
                + "verify_tls = false in the config only if you trust this server."
        case .service(.busy(429)):
            return "Station is limiting requests (HTTP 429) — wait a minute, then try again."
        case .service(.busy(let status)):
            return "Station is busy (HTTP \(status)) — wait a moment, then try again."
        case .service(.httpStatus(let status)):
            return "Station answered the login with HTTP \(status) — check --server and --api (app or web)."
        case .service(.malformed(let reason)):
            return "Station sent an answer mhz cannot read\(detail(reason)) — "
                + "check that --server and --api (app or web) match the station."
        case .service(.rejected(let reason)), .refused(let reason):
            return "Station refused the login\(detail(reason)) — check the account and password, then try again."
        case .service(.expired):
            return "Station turned the login away as expired — try again."
        case .service(.needsLogin):
            return "Station wants a login first — fill in the account and password, then try again."
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
