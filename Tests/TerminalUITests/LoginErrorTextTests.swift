import Radio
import Testing
@testable import TerminalUI

/// The login dialog's failures in words: one line each, what happened and what to change,
/// and the radio's advice to log in naming the login key when the UI passes one.
@Suite struct LoginErrorTextTests {
    @Test func exactTexts() {
        #expect(ErrorText.describe(login: .wrongPassword) == "Wrong password — type it again.")
        #expect(ErrorText.describe(login: .unknownAccount)
            == "The station has no such account — check the e-mail address or user name.")
        #expect(ErrorText.describe(login: .wrongCaptcha("验证码\n不正确"))
            == "The captcha was wrong (验证码 不正确) — type the letters of the new one.")
        #expect(ErrorText.describe(login: .tooManyAttempts)
            == "Too many failed logins from this address — the station refuses logins for now; "
            + "wait about 15 minutes, then try again.")
        #expect(ErrorText.describe(login: .refused("wrong_version"))
            == "Station refused the login (wrong_version) — check the account and password, then try again.")
        #expect(ErrorText.describe(login: .service(.unreachable("Connection refused")))
            == "Station unreachable (Connection refused) — check your network, then try again.")
        #expect(ErrorText.describe(login: .service(.httpStatus(500)))
            == "Station answered the login with HTTP 500 — check --server and --api (app or web).")
        #expect(ErrorText.describe(login: .storage("session.json: Permission denied"))
            == "Could not write to the data directory (session.json: Permission denied) — check that it is writable (--data-dir).")
        #expect(ErrorText.describe(login: .noSession)
            == "Station accepted the login but handed out no session — check --server and --api (app or web).")
    }

    @Test func adviceToLogInNamesTheKeyWhenGivenOne() {
        #expect(ErrorText.describe(.service(.expired), loginKey: "L")
            == "Login session expired — playing on anonymously; press L to log in again.")
        #expect(ErrorText.describe(.service(.httpStatus(401)), loginKey: "L")
            == "Station refused access (HTTP 401) — press L to log in again.")
        #expect(ErrorText.describe(.service(.expired))
            == "Login session expired — playing on anonymously; `mhz login` signs you in again.",
            "headless and the CLI have no keys")
    }
}
