import Testing
@testable import TerminalUI

/// The login dialog's screen as a pure function of its form, at 40, 80 and 120 columns:
/// exact rows, the password only ever as bullets, the captcha inline.
@Suite struct LoginDialogViewTests {
    static let password = "correct horse 9!"

    /// Rows without the padding every row carries, after checking each is exactly `width`.
    static func rows(_ form: LoginForm, width: Int, height: Int) -> [String] {
        let rows = LoginDialogView.render(form, width: width, height: height)
        #expect(rows.count == height)
        for row in rows { #expect(DisplayWidth.width(of: row) == width, "\(row)") }
        return rows.map { $0.trimmingSuffix(" ") }
    }

    static func filled(needsCaptcha: Bool, destination: String) -> LoginForm {
        var form = LoginForm(destination: destination, needsCaptcha: needsCaptcha)
        for character in "listener" { _ = form.handle(.character(character)) }
        _ = form.handle(.tab)
        for character in password { _ = form.handle(.character(character)) }
        return form
    }

    /// No row shows the password, or any word of it.
    static func expectHidden(_ rows: [String]) {
        for row in rows {
            for secret in [password, "correct", "horse", "9!"] { #expect(!row.contains(secret), "\(row)") }
        }
    }

    @Test(arguments: [40, 80, 120])
    func appLoginAtEachWidthShowsBulletsForThePassword(width: Int) {
        let form = Self.filled(needsCaptcha: false, destination: "the embedded station")
        let rows = Self.rows(form, width: width, height: 10)
        let hint = width == 40 ? "  Enter log in  Esc cancel" : "  Enter log in  Tab next field  Esc cancel"
        #expect(rows == [
            " Log in to the embedded station",
            "",
            "  E-mail or name  listener",
            "  Password        ••••••••••••••••▏",
            "", "", "", "", "",
            hint,
        ])
        Self.expectHidden(rows)
    }

    @Test(arguments: [40, 80, 120])
    func webLoginDrawsTheCaptchaInlineAndSaysWhatWentWrong(width: Int) {
        var form = Self.filled(needsCaptcha: true, destination: "http://127.0.0.1:7650")
        _ = form.handle(.tab)
        for character in "mon" { _ = form.handle(.character(character)) }
        form.captchaArrived(.picture(["x"]))
        for character in "mon" { _ = form.handle(.character(character)) }
        #expect(form.handle(.enter) == .send(.submit(LoginAnswers(account: "listener", password: Self.password,
                                                                     captcha: "mon"))))
        #expect(form.loginFailed(.wrongCaptcha("验证码不正确")) == .captcha)
        form.captchaArrived(.picture(["█▀▀ ▄▄█ ▀█▀", "▀▀█ █▄▄  █ "]))
        let rows = Self.rows(form, width: width, height: 14)
        let status = width == 40
            ? ["  The captcha was wrong (验证码不正确)", "  — type the letters of the new one."]
            : ["  The captcha was wrong (验证码不正确) — type the letters of the new one."]
        let hint = width == 40 ? "  Enter log in  Esc cancel" : "  Enter log in  Tab next field  Esc cancel"
        let expected = [
            " Log in to http://127.0.0.1:7650",
            "",
            "  E-mail or name  listener",
            "  Password        ••••••••••••••••",
            "",
            "  █▀▀ ▄▄█ ▀█▀",
            "  ▀▀█ █▄▄  █",
            "  Captcha         ▏",
        ] + Array(repeating: "", count: 5 - status.count) + status + [hint]
        #expect(rows == expected)
        let styles = LoginDialogView.frame(form, width: width, height: 14).styles
        #expect(styles[7] == .title, "the focused field is bold")
        #expect(styles[12] == .alert && styles[3] == .plain)
        Self.expectHidden(rows)
    }

    @Test func withoutAPictureTheCaptchasFileIsNamed() {
        var form = LoginForm(destination: "http://127.0.0.1:7650", needsCaptcha: true)
        #expect(Self.rows(form, width: 40, height: 10) == [
            " Log in to http://127.0.0.1:7650", "",
            "  E-mail or name  ▏", "  Password", "", "  Captcha", "", "", "  Fetching the captcha…",
            "  Enter log in  Esc cancel",
        ])
        form.captchaArrived(.file("/tmp/mhz/captcha.jpg"))
        #expect(Self.rows(form, width: 40, height: 14) == [
            " Log in to http://127.0.0.1:7650",
            "",
            "  E-mail or name  ▏",
            "  Password",
            "",
            "  Captcha image saved to",
            "  /tmp/mhz/captcha.jpg — open it to",
            "  read the letters.",
            "  Captcha",
            "", "", "", "",
            "  Enter log in  Esc cancel",
        ])
    }

    @Test func aLongValueShowsItsEndAndWideCharactersFit() {
        var form = LoginForm(destination: "s", needsCaptcha: false)
        for character in "a.very.long.address@example.com" { _ = form.handle(.character(character)) }
        #expect(Self.rows(form, width: 40, height: 6)[2] == "  E-mail or name  …ddress@example.com▏")
        _ = form.handle(.control("u"))
        for character in "李小龍" { _ = form.handle(.character(character)) }
        #expect(Self.rows(form, width: 40, height: 6)[2] == "  E-mail or name  李小龍▏")
    }

    @Test func whileLoggingInThereIsNoCursorAndTheStatusSaysSo() {
        var form = Self.filled(needsCaptcha: false, destination: "the embedded station")
        _ = form.handle(.enter)
        let rows = Self.rows(form, width: 80, height: 6)
        #expect(rows == [
            " Log in to the embedded station", "",
            "  E-mail or name  listener",
            "  Password        ••••••••••••••••",
            "  Logging in…",
            "  Enter log in  Tab next field  Esc cancel",
        ])
    }

    @Test func aShortScreenKeepsTheFieldsAndTheProblem() {
        var form = Self.filled(needsCaptcha: false, destination: "the embedded station")
        _ = form.handle(.enter)
        _ = form.loginFailed(.wrongPassword)
        #expect(Self.rows(form, width: 80, height: 3) == [
            "  E-mail or name  listener",
            "  Password        ▏",
            "  Wrong password — type it again.",
        ])
    }
}
