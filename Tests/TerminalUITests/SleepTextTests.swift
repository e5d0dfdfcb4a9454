import Foundation
import Radio
import Testing
@testable import TerminalUI

/// The time the sleep timer has left, as the status line tells it.
struct SleepTextTests {
    @Test func theStatusLineTellsTheTimeLeftRoundedUp() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(NowPlayingView.sleepText(until: now.addingTimeInterval(1781.2), now: now) == "Sleep in 29:42.")
        #expect(NowPlayingView.sleepText(until: now.addingTimeInterval(3720), now: now) == "Sleep in 1:02:00.")
        #expect(NowPlayingView.sleepText(until: now.addingTimeInterval(0.3), now: now) == "Sleep in 0:01.")
        #expect(NowPlayingView.sleepText(until: now.addingTimeInterval(-2), now: now) == "Sleep in 0:00.")
        var snapshot = RadioSnapshot()
        #expect(!NowPlayingView.statusText(snapshot).contains("Sleep"))
        snapshot.sleepEnds = Date().addingTimeInterval(600)
        #expect(NowPlayingView.statusText(snapshot).hasSuffix("Sleep in 10:00."))
    }
}
