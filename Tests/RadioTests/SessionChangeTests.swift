import Backoff
import Foundation
import Testing
@testable import Radio
import RadioAPI

/// A login while the radio runs (the terminal UI's dialog): the refusal the old session
/// earned is cleared and a fetch waiting out its retry goes again at once, as the new login;
/// a radio with songs to play is left alone.
struct SessionChangeTests {
    @Test func aRefusedRedHeartChannelIsAskedAgainAtOnceAfterALogin() {
        var m = RadioMachine(configuration: .init(retry: .constant(30)))
        _ = m.handle(.start(channelID: "-3"))
        let refused = m.handle(.failed(requestID: 1, .rejected("not_logged_in")))
        guard case .scheduleRetry(after: 30, let token)? = refused.last else { Issue.record("no retry"); return }
        #expect(m.snapshot.problem == .service(.rejected("not_logged_in")))

        let changed = m.handle(.sessionChanged)
        #expect(reports(changed).map { "\($0.type) \($0.channel)" } == ["n -3"])
        #expect(m.snapshot.problem == nil)
        #expect(m.handle(.retryTimer(token: token)).isEmpty, "the old timer does not ask a second time")
        _ = m.handle(.answered(requestID: reports(changed)[0].id, tracks: [t(1), t(2)]))
        #expect(m.current?.sid == "1")
    }

    @Test func aRadioThatPlaysOnlyLosesTheOldComplaint() {
        var m = playingMachine()
        _ = m.handle(.failed(requestID: 99, .expired))
        #expect(m.snapshot.problem == .service(.expired))
        #expect(m.handle(.sessionChanged).isEmpty)
        #expect(m.snapshot.problem == nil)
        #expect(m.current != nil)
    }

    @Test func aPlayerProblemStays() {
        var m = playingMachine()
        _ = m.handle(.playerFinished(m.ticket, .failed(.loadFailed("HTTP 404"))))
        let problem = m.snapshot.problem
        _ = m.handle(.sessionChanged)
        #expect(m.snapshot.problem == problem && problem == .player(.loadFailed("HTTP 404")))
    }
}
