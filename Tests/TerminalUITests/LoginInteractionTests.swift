import Radio
import Testing
@testable import TerminalUI
@testable import TUIHarness

/// The login key and dialog inside the UI's key dispatch: what opens it, that typing in it
/// sends no radio command, what it asks the login service, and how the service's answers
/// close it or keep it open.
@Suite struct LoginInteractionTests {
    static let start = ContinuousClock.now
    static let app = (destination: "the embedded station", needsCaptcha: false)

    static func type(_ text: String, _ state: inout InteractionState) -> [InteractionState.Response] {
        text.map { state.handle(.character($0), snapshot: Fixtures.ascii, now: start) }
    }

    @Test func theLoginKeyOpensTheDialogAndTypingSendsNoCommand() {
        var state = InteractionState(keymap: .standard, login: Self.app)
        let opened = state.handle(.character("L"), snapshot: Fixtures.ascii, now: Self.start)
        #expect(opened == InteractionState.Response())
        guard case .login(let form) = state.mode else { Issue.record("no dialog"); return }
        #expect(form.destination == "the embedded station" && !form.needsCaptcha)
        // n, l, b and q are radio keys outside the dialog; inside they are letters.
        let responses = Self.type("nlbq", &state) + [state.handle(.tab, snapshot: Fixtures.ascii, now: Self.start)]
            + Self.type("pw", &state)
        #expect(responses.allSatisfy { $0 == InteractionState.Response() })
        let submitted = state.handle(.enter, snapshot: Fixtures.ascii, now: Self.start)
        #expect(submitted == InteractionState.Response(login: .submit(LoginAnswers(account: "nlbq", password: "pw"))))
    }

    @Test func aWebDialogAsksForACaptchaAtOnce() {
        var state = InteractionState(keymap: .standard, login: (destination: "http://x", needsCaptcha: true))
        #expect(state.handle(.character("L"), snapshot: Fixtures.ascii, now: Self.start)
            == InteractionState.Response(login: .captcha))
        #expect(state.isWaitingForLogin)
        _ = state.loginAnswered(.captcha(.picture(["##"])), generation: state.loginGeneration, now: Self.start)
        guard case .login(let form) = state.mode else { Issue.record("no dialog"); return }
        #expect(form.captcha == .picture(["##"]) && !state.isWaitingForLogin)
    }

    @Test func withoutALoginServiceTheKeySaysSo() {
        var state = InteractionState(keymap: .standard)
        #expect(state.handle(.character("L"), snapshot: Fixtures.ascii, now: Self.start) == InteractionState.Response())
        #expect(state.mode == .nowPlaying)
        #expect(state.displayed(Fixtures.ascii, receivedAt: Self.start, now: Self.start).problem == .unsupported("login"))
    }

    @Test func escapeClosesTheDialogAndTellsTheService() {
        var state = InteractionState(keymap: .standard, login: Self.app)
        _ = state.handle(.character("L"), snapshot: Fixtures.ascii, now: Self.start)
        #expect(state.handle(.escape, snapshot: Fixtures.ascii, now: Self.start)
            == InteractionState.Response(loginClosed: true))
        #expect(state.mode == .nowPlaying)
    }

    @Test func successClosesTheDialogAndTheStatusLineSaysWhoIsLoggedIn() {
        var state = InteractionState(keymap: .standard, login: Self.app)
        _ = state.handle(.character("L"), snapshot: Fixtures.ascii, now: Self.start)
        let answered = state.loginAnswered(.loggedIn("listener"), generation: state.loginGeneration, now: Self.start)
        #expect(answered == InteractionState.Response(loginClosed: true))
        #expect(state.mode == .nowPlaying)
        var expired = Fixtures.ascii
        expired.problem = .service(.expired)
        let lines = state.frame(expired, width: 80, height: 16, now: Self.start + .seconds(1)).lines
        #expect(lines[14] == DisplayWidth.pad("  Logged in to the embedded station as listener.", to: 80))
        #expect(state.hasNotice(at: Self.start + .seconds(9)))
        let later = state.frame(expired, width: 80, height: 16, now: Self.start + .seconds(11)).lines
        #expect(later[14] == DisplayWidth.pad(
            "  Login session expired — playing on anonymously; press L to log in again.", to: 80),
            "afterwards the radio's own status shows again, naming the login key")
    }

    @Test func aFailureKeepsTheDialogOpenAndAnAnswerForAnOldDialogIsDropped() {
        var state = InteractionState(keymap: .standard, login: Self.app)
        _ = state.handle(.character("L"), snapshot: Fixtures.ascii, now: Self.start)
        let first = state.loginGeneration
        _ = state.loginAnswered(.loginFailed(.wrongPassword), generation: first, now: Self.start)
        guard case .login(let form) = state.mode else { Issue.record("dialog closed"); return }
        #expect(form.problem == .wrongPassword && form.focus == .password)
        _ = state.handle(.escape, snapshot: Fixtures.ascii, now: Self.start)
        _ = state.handle(.character("L"), snapshot: Fixtures.ascii, now: Self.start)
        _ = state.loginAnswered(.loginFailed(.unknownAccount), generation: first, now: Self.start)
        guard case .login(let fresh) = state.mode else { Issue.record("dialog closed"); return }
        #expect(fresh.problem == nil, "the reopened dialog is not the one that failed")
    }

    @Test func aCaptchaForAClosedDialogIsCleanedUpButNotForAReopenedOne() {
        var state = InteractionState(keymap: .standard, login: (destination: "http://x", needsCaptcha: true))
        _ = state.handle(.character("L"), snapshot: Fixtures.ascii, now: Self.start)
        let first = state.loginGeneration
        _ = state.handle(.escape, snapshot: Fixtures.ascii, now: Self.start)
        #expect(state.loginAnswered(.captcha(.file("/c.jpg")), generation: first, now: Self.start)
            == InteractionState.Response(loginClosed: true))
        _ = state.handle(.character("L"), snapshot: Fixtures.ascii, now: Self.start)
        #expect(state.loginAnswered(.captcha(.file("/c.jpg")), generation: first, now: Self.start)
            == InteractionState.Response(), "the open dialog's own captcha uses the same file")
        guard case .login(let form) = state.mode else { Issue.record("dialog closed"); return }
        #expect(form.captcha == nil && form.phase == .fetchingCaptcha)
    }

    @Test func theLoginKeyFollowsARemapInTheAdvice() throws {
        let keymap = try Keymap(overrides: ["login": "ctrl+l"])
        var snapshot = Fixtures.ascii
        snapshot.problem = .service(.rejected("not_logged_in"))
        let lines = NowPlayingView.render(snapshot, width: 120, height: 16, keymap: keymap)
        #expect(lines[14].hasPrefix(
            "  Station refused the request (not_logged_in) — try another channel, or press ^L to log in again.  "))
        let unbound = try Keymap(overrides: ["login": "none"])
        #expect(NowPlayingView.render(snapshot, width: 120, height: 16, keymap: unbound)[14].hasPrefix(
            "  Station refused the request (not_logged_in) — try another channel, or log in again with `mhz login`."))
    }

    @Test func theAnswersNeverPrintThePassword() {
        let answers = LoginAnswers(account: "listener", password: "correct horse 9!", captcha: "moon")
        var dumped = ""
        dump(answers, to: &dumped)
        for text in ["\(answers)", String(reflecting: answers), dumped] {
            #expect(!text.contains("horse"), "\(text)")
            #expect(text.contains("listener") && text.contains("moon"))
        }
        #expect("\(answers)" == "account listener, password <hidden>, captcha moon")
    }
}
