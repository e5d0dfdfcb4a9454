import Radio
import Testing
@testable import TerminalUI
@testable import TUIHarness

/// Key dispatch as the UI loop runs it, without a terminal: which commands a key sends
/// given the snapshot on screen, and which screen comes to the front.
@Suite struct InteractionStateTests {
    static let start = ContinuousClock.now

    static func press(_ keys: [Key], _ state: inout InteractionState, snapshot: RadioSnapshot,
                      at offset: Duration = .zero) -> [RadioCommand] {
        keys.flatMap { state.handle($0, snapshot: snapshot, now: start + offset).commands }
    }

    @Test func keysSendCommandsFromTheTable() {
        var state = InteractionState(keymap: .standard)
        let commands = Self.press([.character(" "), .character("n"), .character("b"), .right, .left],
                                  &state, snapshot: Fixtures.ascii)
        #expect(commands == [.toggle, .skip, .trash, .seek(.relative(10)), .seek(.relative(-10))])
    }

    @Test func likeKeySendsLikeOrUnlikeByState() {
        var state = InteractionState(keymap: .standard)
        #expect(Self.press([.character("l")], &state, snapshot: Fixtures.ascii) == [.unlike])
        #expect(Self.press([.character("l")], &state, snapshot: Fixtures.chinese) == [.like])
    }

    @Test func songKeysWithoutASongShowANoticeInsteadOfSending() {
        var state = InteractionState(keymap: .standard)
        let idle = RadioSnapshot()
        #expect(Self.press([.character("n"), .character("l")], &state, snapshot: idle) == [])
        let shown = state.displayed(idle, receivedAt: Self.start, now: Self.start + .seconds(1))
        #expect(shown.problem == .nothingPlaying)
        let later = state.displayed(idle, receivedAt: Self.start, now: Self.start + .seconds(4))
        #expect(later.problem == nil)
        #expect(Self.press([.character(" ")], &state, snapshot: idle) == [.toggle], "global keys still work")
    }

    @Test("on a live channel the radio's keys (login, variety, downloads, history, lyrics, download) say in one line that they do not apply, and act on nothing")
    func radioKeysOnALiveChannel() {
        var state = InteractionState(keymap: .standard, login: (destination: "the station", needsCaptcha: false))
        var live = Fixtures.ascii
        live.live = LiveStatus(behind: 0, returnsToRadio: true)
        for key in ["L", "]", "[", "D", "H", "y", "d", "{", "}"] {
            let response = state.handle(.character(Character(key)), snapshot: live, now: Self.start)
            #expect(response == InteractionState.Response(), "\(key)")
            #expect(state.mode == .nowPlaying, "\(key)")
        }
        let shown = state.displayed(live, receivedAt: Self.start, now: Self.start + .seconds(1))
        #expect(shown.problem.map { ErrorText.describe($0) }
            == "“lyrics-earlier” is the radio's and does not apply to a live channel — `radio` goes back to the radio.")
        _ = state.handle(.character("]"), snapshot: live, now: Self.start)
        #expect(state.displayed(live, receivedAt: Self.start, now: Self.start).problem.map { ErrorText.describe($0) }
            == "“variety-up” is the radio's and does not apply to a live channel — `radio` goes back to the radio.")
        // mhz --live has no radio behind it.
        live.live?.returnsToRadio = false
        _ = state.handle(.character("L"), snapshot: live, now: Self.start)
        #expect(state.displayed(live, receivedAt: Self.start, now: Self.start).problem.map { ErrorText.describe($0) }
            == "“login” is the radio's and does not apply to a live channel — quit and start mhz without --live for the radio.")
        // The broadcast's own keys act; r goes back to the radio.
        #expect(Self.press([.character("n"), .character("l"), .character("e"), .character("r")], &state, snapshot: live)
            == [.skip, .unlike, .live, .radio])
        // On the radio the same keys act as ever.
        var radio = InteractionState(keymap: .standard, login: (destination: "the station", needsCaptcha: false))
        #expect(radio.handle(.character("]"), snapshot: Fixtures.ascii, now: Self.start).variety == 0.1)
        _ = radio.handle(.character("L"), snapshot: Fixtures.ascii, now: Self.start)
        #expect(radio.isLoginOpen)
    }

    @Test func volumeStepsAddUpBeforeTheRadioAnswers() {
        var state = InteractionState(keymap: .standard)
        let snapshot = RadioSnapshot(volume: 90)
        #expect(Self.press([.character("+"), .character("+"), .character("+")], &state, snapshot: snapshot)
            == [.volume(95), .volume(100)])
        // Two seconds later the snapshot is trusted again.
        #expect(Self.press([.character("-")], &state, snapshot: snapshot, at: .seconds(2)) == [.volume(85)])
    }

    @Test func quitSendsQuitAndLeaves() {
        var state = InteractionState(keymap: .standard)
        let response = state.handle(.character("q"), snapshot: Fixtures.ascii, now: Self.start)
        #expect(response == InteractionState.Response(commands: [.quit], quit: true))
    }

    @Test func channelListOpensChoosesAndCloses() {
        var state = InteractionState(keymap: .standard)
        let snapshot = Fixtures.chinese
        #expect(Self.press([.character("c")], &state, snapshot: snapshot) == [])
        #expect(state.mode == .channels(ChannelListView(selecting: "1")))
        // In the list, q closes it instead of quitting.
        let close = state.handle(.character("q"), snapshot: snapshot, now: Self.start)
        #expect(close == InteractionState.Response() && state.mode == .nowPlaying)
        #expect(Self.press([.character("c"), .down, .enter], &state, snapshot: snapshot) == [.channel("2")])
        #expect(state.mode == .nowPlaying)
    }

    @Test func helpOpensAndAnyKeyClosesIt() {
        var state = InteractionState(keymap: .standard)
        #expect(Self.press([.character("?")], &state, snapshot: Fixtures.ascii) == [])
        #expect(state.mode == .help(first: 0))
        #expect(state.frame(Fixtures.ascii, width: 40, height: 3).lines[0] == DisplayWidth.pad(" mhz keys", to: 40))
        #expect(Self.press([.character("n")], &state, snapshot: Fixtures.ascii) == [], "closes, does not skip")
        #expect(state.mode == .nowPlaying)
        // On a screen the whole help fits, ↓ closes it as any key does.
        _ = Self.press([.character("?")], &state, snapshot: Fixtures.ascii)
        #expect(HelpView.lastFirst(.standard, height: 100) == 0)
        _ = state.handle(.down, snapshot: Fixtures.ascii, now: Self.start, height: 100)
        #expect(state.mode == .nowPlaying)
    }

    @Test func helpTallerThanTheScreenScrolls() {
        var state = InteractionState(keymap: .standard)
        _ = Self.press([.character("?")], &state, snapshot: Fixtures.ascii)
        // 80 × 24: the title, a blank line, 21 lines of the body and the footer.
        let total = HelpView.lastFirst(.standard, height: 24) + 21
        #expect(total > 21, "the standard keys outgrow 24 rows")
        func footer() -> String {
            state.frame(Fixtures.ascii, width: 80, height: 24).lines[23].trimmingCharacters(in: .whitespaces)
        }
        #expect(footer() == "↑ ↓ PgUp PgDn scroll, any other key closes (1–21 of \(total))")
        #expect(state.frame(Fixtures.ascii, width: 80, height: 24).lines[2].trimmingCharacters(in: .whitespaces) == "Playing")
        _ = state.handle(.down, snapshot: Fixtures.ascii, now: Self.start, height: 24)
        #expect(state.mode == .help(first: 1) && footer() == "↑ ↓ PgUp PgDn scroll, any other key closes (2–22 of \(total))")
        // Page down past the end stops at the last page, which ends with the history's last key.
        for _ in 0..<5 { _ = state.handle(.pageDown, snapshot: Fixtures.ascii, now: Self.start, height: 24) }
        #expect(state.mode == .help(first: total - 21))
        let lines = state.frame(Fixtures.ascii, width: 80, height: 24).lines
        let lastRow = HelpView.helpRows(.standard).last { $0.context == .history }!
        #expect(lines[22].contains(lastRow.help), "\(lines)")
        #expect(lines.contains { $0.trimmingCharacters(in: .whitespaces) == "In the history" })
        _ = state.handle(.pageUp, snapshot: Fixtures.ascii, now: Self.start, height: 24)
        #expect(state.mode == .help(first: total - 42 > 0 ? total - 42 : 0))
        _ = state.handle(.up, snapshot: Fixtures.ascii, now: Self.start, height: 24)
        // Any other key closes, and is not acted on.
        #expect(state.handle(.character("n"), snapshot: Fixtures.ascii, now: Self.start, height: 24).commands.isEmpty)
        #expect(state.mode == .nowPlaying)
    }

    @Test func positionRunsOnWhilePlayingOnly() {
        let state = InteractionState(keymap: .standard)
        let playing = state.displayed(Fixtures.ascii, receivedAt: Self.start, now: Self.start + .milliseconds(2500))
        #expect(playing.position == 67.5)
        let capped = state.displayed(Fixtures.ascii, receivedAt: Self.start, now: Self.start + .seconds(60))
        #expect(capped.position == 70, "at most 5 s past the last snapshot")
        let paused = state.displayed(Fixtures.chinese, receivedAt: Self.start, now: Self.start + .seconds(3))
        #expect(paused.position == 65)
        var nearEnd = Fixtures.ascii
        nearEnd.position = 561
        #expect(state.displayed(nearEnd, receivedAt: Self.start, now: Self.start + .seconds(3)).position == 562)
    }
}

/// What makes the loop draw again: progress alone waits for the clock's next second.
@Suite struct RedrawDecisionTests {
    @Test func aSnapshotThatOnlyMovesThePositionIsNotAChange() {
        let before = Fixtures.ascii
        var progressed = before
        progressed.position += 0.25
        #expect(TerminalApp.differsOnlyInPosition(before, progressed))
        #expect(TerminalApp.differsOnlyInPosition(before, before))

        var paused = progressed
        paused.paused.toggle()
        #expect(!TerminalApp.differsOnlyInPosition(before, paused))
        var louder = before
        louder.volume -= 5
        #expect(!TerminalApp.differsOnlyInPosition(before, louder))
        var troubled = progressed
        troubled.problem = .nothingPlaying
        #expect(!TerminalApp.differsOnlyInPosition(before, troubled))
        #expect(!TerminalApp.differsOnlyInPosition(before, Fixtures.chinese))
    }
}
