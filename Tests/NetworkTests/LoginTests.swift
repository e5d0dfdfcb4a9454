import Foundation
import HTTP
import RadioAPI
import Settings
import TestSupport
import Testing
@testable import StationLink
@testable import mhz

/// `mhz login` / `mhz logout` as code: the exact forms, the session kept with mode 0600,
/// never the password, the server's refusals in words, and logout forgetting everything.
struct LoginTests {
    typealias Account = DoubanTestServer.Account

    @Test func appLoginSendsTheExactFormOnceAndKeepsOnlyTokens() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        let session = try await seam.logIn(.app)
        #expect(session.api == .app)
        #expect(session.server == seam.server.baseURL.absoluteString)
        #expect(session.userName == Account.name && session.userID == Account.userID)
        #expect(session.app == AppCredentials(userID: Account.userID, token: Account.token, expire: Account.expire,
                                              userName: Account.name, email: Account.email))
        let logins = seam.server.calls(to: "/j/app/login")
        #expect(logins.count == 1)
        #expect(logins.first?.method == "POST")
        #expect(String(decoding: logins.first?.body ?? Data(), as: UTF8.self) ==
            "app_name=radio_android&version=100&email=listener%40example.com&password=correct%20horse%209%21")
        #expect(try seam.mode("session.json") == 0o600)
        #expect(try seam.files(containing: Account.token) == ["session.json"])
        #expect(try seam.files(containing: Account.password).isEmpty)
        #expect(try seam.files(containing: "correct%20horse").isEmpty)
        #expect(try SessionStore(directory: seam.data.url).load() == session)
    }

    @Test func aUserNameGoesAsUsername() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        var prompter = ScriptedPrompter()
        prompter.accountName = Account.name
        try await seam.logIn(.app, prompter: prompter)
        #expect(seam.server.calls(to: "/j/app/login").first?.field("username") == Account.name)
        #expect(seam.server.calls(to: "/j/app/login").first?.field("email") == nil)
    }

    @Test func webLoginShowsTheCaptchaSendsTheExactFormAndKeepsCookiesPrivately() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        let prompter = ScriptedPrompter()
        let session = try await seam.logIn(.web, prompter: prompter)
        #expect(session.web == WebUser(id: Account.userID, uid: Account.name, name: Account.name, isPro: false))
        #expect(session.app == nil)
        // The captcha was fetched with the cookie /j/new_captcha set, saved, shown, removed.
        #expect(seam.server.calls(to: "/misc/captcha").map(\.rawQuery) == ["size=m&id=8Z9w6tODHEukHkAmBz52dWg4%3Aen"])
        #expect(seam.server.calls(to: "/misc/captcha").first?.cookies["bid"] == Account.browserID)
        let shown = try #require(prompter.shownImage.value)
        #expect(shown.path == seam.data.path("captcha.jpg").path)
        #expect(shown.bytes.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(!seam.exists("captcha.jpg"))
        let login = try #require(seam.server.calls(to: "/j/login").first)
        #expect(seam.server.calls(to: "/j/login").count == 1)
        #expect(login.formText ==
            "source=radio&alias=listener@example.com&form_password=\(Account.password)&captcha_solution=moon&captcha_id=\(Account.captchaID)&remember=on&task=sync_channel_list")
        // The bytes as they travelled: every character outside RFC 3986's unreserved set
        // escaped (`@`, space, `!`, `:`), none as `+`.
        #expect(String(decoding: login.body, as: UTF8.self) ==
            "source=radio&alias=listener%40example.com&form_password=correct%20horse%209%21&captcha_solution=moon&captcha_id=8Z9w6tODHEukHkAmBz52dWg4%3Aen&remember=on&task=sync_channel_list")
        #expect(login.headers["content-type"] == "application/x-www-form-urlencoded")
        #expect(login.headers["origin"] == seam.server.baseURL.absoluteString)
        #expect(login.cookies == ["bid": Account.browserID])
        #expect(try seam.mode("cookies.txt") == 0o600)
        #expect(try seam.mode("session.json") == 0o600)
        #expect(try seam.files(containing: Account.sessionCookie) == ["cookies.txt"])
        #expect(try seam.files(containing: Account.password).isEmpty)
        #expect(try seam.files(containing: "correct%20horse").isEmpty)
    }

    @Test func refusalsAreWordedAndTheLoginIsNeverRetried() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        var wrong = ScriptedPrompter()
        wrong.passwordText = "nope"
        await #expect(throws: CLIError.runtime(
            "wrong password for listener@example.com on \(seam.server.baseURL.absoluteString): run `mhz login` again")) {
            try await seam.logIn(.app, prompter: wrong)
        }
        var stranger = ScriptedPrompter()
        stranger.accountName = "nobody@example.com"
        await #expect(throws: CLIError.runtime(
            "\(seam.server.baseURL.absoluteString) has no account with the e-mail address nobody@example.com: check it, or give your user name")) {
            try await seam.logIn(.app, prompter: stranger)
        }
        var misread = ScriptedPrompter()
        misread.captchaText = "noon"
        await #expect(throws: CLIError.runtime(
            "\(seam.server.baseURL.absoluteString) refused the login: the captcha was wrong (验证码不正确, error 1011): run `mhz login` again")) {
            try await seam.logIn(.web, prompter: misread)
        }
        seam.server.script("/j/app/login", [.status(503), .status(503)])
        await #expect(throws: CLIError.runtime(
            "\(seam.server.baseURL.absoluteString) is busy (HTTP 503): wait a moment, then try again")) {
            try await seam.logIn(.app)
        }
        #expect(seam.server.calls(to: "/j/app/login").count == 3, "one request per attempt, none retried")
        #expect(!seam.exists("session.json"))
    }

    @Test func anAddressHeldOffIsToldToWaitAQuarterOfAnHour() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        let server = seam.server.baseURL.absoluteString
        seam.server.script("/j/app/login", [.status(200, body: DialogLoginTests.appTooManyAttempts)])
        await #expect(throws: CLIError.runtime(
            "\(server) refused the login: too many failed logins from this address (too_many_attempts): "
                + "wait a quarter of an hour, then run `mhz login` again")) {
            try await seam.logIn(.app)
        }
        seam.server.script("/j/login", [.status(200, body: DialogLoginTests.webTooManyAttempts)])
        await #expect(throws: CLIError.runtime(
            "\(server) refused the login: too many failed logins from this address (登录尝试过多，请稍后再试, error 1020): "
                + "wait a quarter of an hour, then run `mhz login` again")) {
            try await seam.logIn(.web)
        }
        #expect(!seam.exists("session.json"))
    }

    @Test func aFailedWebLoginKeepsTheSessionThereWas() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        try await seam.logIn(.web)
        var misread = ScriptedPrompter()
        misread.captchaText = "noon"
        await #expect(throws: CLIError.self) { try await seam.logIn(.web, prompter: misread) }
        #expect(seam.exists("session.json"))
        #expect(try seam.files(containing: Account.sessionCookie) == ["cookies.txt"])
        #expect(try seam.client(.web).session.login.isLoggedIn)
    }

    @Test func webLogoutEndsTheSessionOnTheServerAndForgetsIt() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        try await seam.logIn(.web)
        let outcome = try await LogoutCommand.logOut(store: SessionStore(directory: seam.data.url), config: Config(),
                                                     logger: seam.log.logger)
        #expect(outcome == .loggedOut(server: seam.server.baseURL.absoluteString))
        let logout = try #require(seam.server.calls(to: "/partner/logout").first)
        #expect(logout.rawQuery == "source=radio&ck=\(Account.check)&no_login=y")
        #expect(logout.cookies["dbcl2"] == "\"\(Account.sessionCookie)\"")
        #expect(seam.server.webLoggedOut)
        #expect(!seam.exists("session.json") && !seam.exists("cookies.txt"))
        let again = try await LogoutCommand.logOut(store: SessionStore(directory: seam.data.url), config: Config())
        #expect(again == .notLoggedIn)
    }

    @Test func appLogoutIsLocalAndAnUnreachableWebServerDoesNotKeepTheSession() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        try await seam.logIn(.app)
        let before = seam.server.calls.count
        #expect(try await LogoutCommand.logOut(store: SessionStore(directory: seam.data.url), config: Config())
            == .loggedOut(server: seam.server.baseURL.absoluteString))
        #expect(seam.server.calls.count == before)
        #expect(!seam.exists("session.json"))

        try await seam.logIn(.web)
        seam.server.script("/partner/logout", [.status(502), .status(502), .status(502)])
        let outcome = try await LogoutCommand.logOut(store: SessionStore(directory: seam.data.url), config: Config())
        #expect(outcome == .forgottenOnly(server: seam.server.baseURL.absoluteString,
                                          reason: "\(seam.server.baseURL.absoluteString) is busy (HTTP 502): wait a moment, then try again"))
        #expect(!seam.exists("session.json") && !seam.exists("cookies.txt"))
    }

    @Test func aSessionOfAnotherServerOrFamilyIsNotUsed() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        try await seam.logIn(.app)
        #expect(try seam.runtime(.app).activeSession(logger: seam.log.logger).login.isLoggedIn)
        #expect(try !seam.runtime(.web).activeSession(logger: seam.log.logger).login.isLoggedIn)
        #expect(seam.exists("session.json"), "kept for the server and family it belongs to")
        #expect(RadioRuntime.sessionKey(server: URL(string: "https://douban.fm//")!) == "https://douban.fm")
        #expect(RadioRuntime.sessionKey(server: nil) == "embedded")
    }
}
