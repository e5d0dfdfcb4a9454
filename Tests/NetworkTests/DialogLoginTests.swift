import Foundation
import Radio
import RadioAPI
import TerminalUI
import TestSupport
import Testing
@testable import StationLink
@testable import mhz

/// The terminal UI's login service (``DialogLogin``) against the recording server, in
/// process: the exact login form, the failures in the dialog's terms, and the running
/// client carrying the new session from its very next request, with nothing restarted.
struct DialogLoginTests {
    typealias Account = DoubanTestServer.Account

    /// A runtime's client and the dialog service sharing its session, as `mhz` wires them.
    static func wire(_ seam: Seam, _ family: APIFamily) throws -> (client: StationClient, dialog: DialogLogin) {
        let runtime = try seam.runtime(family)
        let client = runtime.stationClient(logger: seam.log.logger)
        return (client, DialogLogin(runtime: runtime, session: client.session, logger: seam.log.logger))
    }

    static let redHeart = Report(type: .new, channel: "-3", history: [])

    @Test func appLoginSendsTheExactFormAndTheNextPlaylistRequestCarriesTheToken() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        let (client, dialog) = try Self.wire(seam, .app)
        let announced = Locked(0)
        dialog.onLoggedIn { announced.withLock { $0 += 1 } }
        #expect(dialog.destination == seam.server.baseURL.absoluteString && !dialog.needsCaptcha)

        await #expect(throws: ServiceFailure.needsLogin(channel: "-3")) { try await client.send(Self.redHeart) }
        let name = try await dialog.logIn(LoginAnswers(account: Account.name, password: Account.password))
        #expect(name == Account.name)
        #expect(announced.value == 1)
        let logins = seam.server.calls(to: "/j/app/login")
        #expect(logins.count == 1)
        #expect(String(decoding: logins[0].body, as: UTF8.self)
            == "app_name=radio_android&version=100&username=listener&password=correct%20horse%209%21")

        let tracks = try await client.send(Self.redHeart)
        #expect(tracks.map(\.sid) == ["201", "202", "203"])
        #expect(seam.server.calls(to: "/j/app/radio/people").map(\.rawQuery) == [
            "app_name=radio_android&version=100&channel=-3&type=n&sid=&h=&format=original",
            "app_name=radio_android&version=100&user_id=\(Account.userID)&expire=\(Account.expire)&token=\(Account.token)&channel=-3&type=n&sid=&h=&format=original",
        ])
        #expect(try SessionStore(directory: seam.data.url).load()?.app?.token == Account.token)
        #expect(try seam.mode("session.json") == 0o600)
        #expect(try seam.files(containing: Account.password).isEmpty)
        #expect(!seam.log.text.contains("horse"), "\(seam.log.text)")
    }

    @Test func refusalsComeBackInTheDialogsTermsAndKeepTheClientAnonymous() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        let (client, dialog) = try Self.wire(seam, .app)
        await #expect(throws: LoginProblem.wrongPassword) {
            try await dialog.logIn(LoginAnswers(account: Account.email, password: "nope"))
        }
        await #expect(throws: LoginProblem.unknownAccount) {
            try await dialog.logIn(LoginAnswers(account: "nobody", password: Account.password))
        }
        seam.server.script("/j/app/login", [.status(503)])
        await #expect(throws: LoginProblem.service(.busy(503))) {
            try await dialog.logIn(LoginAnswers(account: Account.email, password: Account.password))
        }
        #expect(seam.server.calls(to: "/j/app/login").count == 3, "never retried")
        #expect(client.session.login == .anonymous)
        #expect(!seam.exists("session.json"))
    }

    /// The station's answers to an address it holds off (docs/PROTOCOL.md §9), byte for byte
    /// as `LoginGuardTests` sees mhz's station send them.
    static let appTooManyAttempts = #"{"err":"too_many_attempts","r":1}"#
    static let webTooManyAttempts = #"{"err_msg":"登录尝试过多，请稍后再试","err_no":1020,"r":1}"#

    @Test func anAddressHeldOffComesBackAsTooManyAttemptsInBothFamilies() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        let (appClient, app) = try Self.wire(seam, .app)
        seam.server.script("/j/app/login", [.status(200, body: Self.appTooManyAttempts)])
        await #expect(throws: LoginProblem.tooManyAttempts) {
            try await app.logIn(LoginAnswers(account: Account.email, password: Account.password))
        }
        let (webClient, web) = try Self.wire(seam, .web)
        _ = try await web.captcha(columns: 60, rows: 10)
        seam.server.script("/j/login", [.status(200, body: Self.webTooManyAttempts)])
        await #expect(throws: LoginProblem.tooManyAttempts) {
            try await web.logIn(LoginAnswers(account: Account.name, password: Account.password,
                                             captcha: Account.captchaSolution))
        }
        #expect(seam.server.calls(to: "/j/app/login").count == 1 && seam.server.calls(to: "/j/login").count == 1,
                "never retried")
        #expect(appClient.session.login == .anonymous && webClient.session.login == .anonymous)
        #expect(!seam.exists("session.json"))
    }

    @Test func webLoginShowsTheCaptchasFileTakesItsAnswerAndCarriesTheCookie() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        let (client, dialog) = try Self.wire(seam, .web)
        #expect(dialog.needsCaptcha)
        // The test server's captcha is not a real image, so even an installed chafa
        // cannot draw it: the file is named.
        let captcha = try await dialog.captcha(columns: 60, rows: 10)
        #expect(captcha == .file(seam.data.path("captcha.jpg").path))
        #expect(try seam.mode("captcha.jpg") == 0o600)

        await #expect(throws: LoginProblem.wrongCaptcha("验证码不正确")) {
            try await dialog.logIn(LoginAnswers(account: Account.name, password: Account.password, captcha: "noon"))
        }
        _ = try await dialog.captcha(columns: 60, rows: 10)
        let name = try await dialog.logIn(LoginAnswers(account: Account.name, password: Account.password,
                                                       captcha: Account.captchaSolution))
        #expect(name == Account.name)
        let forms = seam.server.calls(to: "/j/login").map(\.formText)
        #expect(forms.count == 2)
        #expect(forms.last ==
            "source=radio&alias=listener&form_password=\(Account.password)&captcha_solution=moon&captcha_id=\(Account.captchaID)&remember=on&task=sync_channel_list")
        #expect(!seam.exists("captcha.jpg"), "the image goes once the login is done")

        let tracks = try await client.send(Report(type: .new, channel: "-3", history: []))
        #expect(tracks.map(\.sid) == ["301", "302"])
        #expect(seam.server.calls(to: "/j/v2/playlist").last?.cookies["dbcl2"] == "\"\(Account.sessionCookie)\"")
        #expect(try seam.files(containing: Account.password).isEmpty)
    }

    @Test func closingTheDialogRemovesTheCaptchaImage() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        let (_, dialog) = try Self.wire(seam, .web)
        _ = try await dialog.captcha(columns: 60, rows: 10)
        #expect(seam.exists("captcha.jpg"))
        dialog.dialogClosed()
        #expect(!seam.exists("captcha.jpg"))
        await #expect(throws: LoginProblem.wrongCaptcha("")) {
            try await dialog.logIn(LoginAnswers(account: Account.name, password: Account.password, captcha: "moon"))
        }
        #expect(seam.server.calls(to: "/j/login").isEmpty, "no captcha on show: nothing is posted")
    }

    @Test func chafasOutputBecomesPlainRows() {
        #expect(CaptchaText.arguments(for: URL(fileURLWithPath: "/d/captcha.jpg"), columns: 56, rows: 10)
            == ["--format", "symbols", "--colors", "none", "--polite", "on", "--size", "56x10", "/d/captcha.jpg"])
        #expect(CaptchaText.lines("\u{1B}[?25l█▀▀ ▄\r\n\u{1B}[0m▀▀█ █\n\u{1B}]0;title\u{07}\n  \n\u{1B}[?25h")
            == ["█▀▀ ▄", "▀▀█ █"])
    }
}
