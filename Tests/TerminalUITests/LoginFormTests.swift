import Testing
@testable import TerminalUI

/// The login dialog's form as plain values: what typing, editing and moving do, when
/// Enter submits and with exactly which answers, and what a failure leaves behind.
@Suite struct LoginFormTests {
    static func type(_ text: String, into form: inout LoginForm) {
        for character in text { #expect(form.handle(.character(character)) == .stay) }
    }

    @Test func typingGoesIntoTheFocusedFieldAndTabMovesOnInACircle() {
        var form = LoginForm(destination: "s", needsCaptcha: false)
        #expect(form.phase == .editing && form.focus == .account)
        Self.type("listener", into: &form)
        #expect(form.handle(.tab) == .stay)
        #expect(form.focus == .password)
        Self.type("correct horse 9!", into: &form)
        #expect(form.handle(.tab) == .stay)
        #expect(form.focus == .account, "two fields without a captcha: Tab wraps")
        #expect(form.handle(.up) == .stay)
        #expect(form.focus == .password)
        #expect(form.account == "listener")
        #expect(form.password == "correct horse 9!")
        #expect(form.captchaAnswer == "")
    }

    @Test func backspaceRemovesWholeCharactersCJKAndEmojiIncluded() {
        var form = LoginForm(destination: "s", needsCaptcha: false)
        Self.type("李小龍👍🏽é", into: &form)
        #expect(form.handle(.backspace) == .stay)
        #expect(form.account == "李小龍👍🏽")
        _ = form.handle(.backspace)
        #expect(form.account == "李小龍")
        _ = form.handle(.backspace)
        #expect(form.account == "李小")
        _ = form.handle(.control("u"))
        #expect(form.account == "")
        _ = form.handle(.backspace)
        #expect(form.account == "", "backspace on an empty field does nothing")
    }

    @Test func enterMovesToTheFirstEmptyFieldThenSubmitsTheExactAnswers() {
        var form = LoginForm(destination: "s", needsCaptcha: false)
        #expect(form.handle(.enter) == .stay)
        #expect(form.focus == .account)
        Self.type("  listener@example.com ", into: &form)
        #expect(form.handle(.enter) == .stay)
        #expect(form.focus == .password)
        Self.type(" pass word ", into: &form)
        #expect(form.handle(.enter) == .send(.submit(
            LoginAnswers(account: "listener@example.com", password: " pass word ", captcha: nil))),
            "the account is trimmed, the password is not")
        #expect(form.phase == .submitting)
        #expect(form.handle(.character("x")) == .stay)
        #expect(form.handle(.enter) == .stay, "one attempt at a time")
        #expect(form.password == " pass word ")
        #expect(form.handle(.escape) == .close, "Esc still closes")
    }

    @Test func aBlankAccountIsEmptyButASpacePasswordIsNot() {
        var form = LoginForm(destination: "s", needsCaptcha: false)
        Self.type("   ", into: &form)
        _ = form.handle(.tab)
        Self.type(" ", into: &form)
        #expect(form.handle(.enter) == .stay)
        #expect(form.focus == .account)
    }

    @Test func withACaptchaItWaitsForOneAndSubmitsItsAnswer() {
        var form = LoginForm(destination: "s", needsCaptcha: true)
        #expect(form.phase == .fetchingCaptcha)
        #expect(form.fields == [.account, .password, .captcha])
        Self.type("listener", into: &form)
        _ = form.handle(.tab)
        Self.type("pw", into: &form)
        _ = form.handle(.tab)
        #expect(form.focus == .captcha)
        Self.type("moon", into: &form)
        #expect(form.handle(.enter) == .stay, "no captcha yet: nothing to answer")
        form.captchaArrived(.picture(["##", "##"]))
        #expect(form.phase == .editing)
        #expect(form.captchaAnswer == "", "a new captcha gets a fresh answer")
        Self.type(" moon ", into: &form)
        #expect(form.handle(.enter) == .send(.submit(LoginAnswers(account: "listener", password: "pw",
                                                                     captcha: "moon"))))
    }

    @Test func aCaptchaThatCouldNotBeFetchedIsAskedForAgainWithEnter() {
        var form = LoginForm(destination: "s", needsCaptcha: true)
        form.captchaFailed(.service(.unreachable("refused")))
        #expect(form.phase == .editing)
        #expect(form.problem == .service(.unreachable("refused")))
        #expect(form.handle(.enter) == .send(.captcha))
        #expect(form.phase == .fetchingCaptcha && form.problem == nil)
        #expect(form.handle(.enter) == .stay, "one fetch at a time")
    }

    @Test func aWrongPasswordEmptiesAndFocusesIt() {
        var form = LoginForm(destination: "s", needsCaptcha: false)
        Self.type("listener", into: &form)
        _ = form.handle(.tab)
        Self.type("nope", into: &form)
        _ = form.handle(.enter)
        #expect(form.loginFailed(.wrongPassword) == nil)
        #expect(form.phase == .editing && form.focus == .password && form.password == "")
        #expect(form.account == "listener")
        #expect(form.problem == .wrongPassword)
        Self.type("again", into: &form)
        #expect(form.handle(.enter) == .send(.submit(LoginAnswers(account: "listener", password: "again"))))
        #expect(form.problem == nil, "a new attempt clears the old failure")
    }

    @Test func anUnknownAccountFocusesTheAccountAndKeepsThePassword() {
        var form = LoginForm(destination: "s", needsCaptcha: false)
        Self.type("who", into: &form)
        _ = form.handle(.tab)
        Self.type("pw", into: &form)
        _ = form.handle(.enter)
        #expect(form.loginFailed(.unknownAccount) == nil)
        #expect(form.focus == .account && form.password == "pw" && form.account == "who")
    }

    @Test func anyFailureWithACaptchaAsksForANewOne() {
        var form = LoginForm(destination: "s", needsCaptcha: true)
        form.captchaArrived(.file("/tmp/c.jpg"))
        Self.type("listener", into: &form)
        _ = form.handle(.tab)
        Self.type("pw", into: &form)
        _ = form.handle(.tab)
        Self.type("mon", into: &form)
        #expect(form.handle(.enter) == .send(.submit(LoginAnswers(account: "listener", password: "pw",
                                                                     captcha: "mon"))))
        #expect(form.loginFailed(.wrongCaptcha("验证码不正确")) == .captcha)
        #expect(form.phase == .fetchingCaptcha && form.captcha == nil && form.captchaAnswer == "")
        #expect(form.focus == .captcha && form.password == "pw")
        #expect(form.loginFailed(.wrongPassword) == .captcha)
        #expect(form.focus == .password && form.password == "")
    }
}
