import Foundation
import RadioAPI
import Testing
@testable import Radio

/// The sleep timer as the machine runs it: its waits are effects whose firings come back
/// as inputs, so the order of the fade's steps and the end is proven without a clock.
struct SleepMachineTests {
    /// The waits among effects: (after, token).
    private func waits(_ effects: [RadioEffect]) -> [(Double, Int)] {
        effects.compactMap { if case .scheduleSleep(let after, let token, _) = $0 { return (after, token) }; return nil }
    }

    @Test func itWaitsFadesInTenStepsThenStopsSavesRestoresTheVolumeAndQuits() throws {
        var m = playingMachine()
        _ = m.handle(.playerVolume(80))
        let set = m.handle(.command(.sleep(30)))
        #expect(events(set) == [.sleep(seconds: 30)])
        let first = try #require(waits(set).first)
        #expect(first.0 == 20, "the fade takes the last 10 s")
        // A stale token does nothing.
        #expect(m.handle(.sleepTimer(token: first.1 + 100)).isEmpty)
        var next = try #require(waits(m.handle(.sleepTimer(token: first.1))).first)
        #expect(next.0 == 1)
        var volumes: [Int] = []
        var last: [RadioEffect] = []
        for _ in 1...10 {
            _ = m.handle(.playerProgress(m.ticket, 12))
            last = m.handle(.sleepTimer(token: next.1))
            for case .emit(.fading(let volume)) in last { volumes.append(volume) }
            if let wait = waits(last).first { next = wait }
        }
        #expect(volumes == [72, 64, 56, 48, 40, 32, 24, 16, 8, 0])
        // The last step: silence, the song's row and position, stop, the volume back, quit.
        #expect(last.first == .setVolume(0))
        let tail = Array(last.suffix(4))
        guard case .savePosition(let position) = tail[0] else { Issue.record("\(last)"); return }
        #expect(position.position == 12 && position.sid == "1")
        #expect(Array(tail[1...]) == [.stopPlayer, .setVolume(80), .quit])
        #expect(last.contains(.endListen(id: 1, listened: 12, outcome: .quit, liked: false)))
        #expect(m.state == .quit)
    }

    @Test func theFadeBeginsFromTheVolumeHeardWhenItBeginsAsOnALiveChannel() throws {
        var m = playingMachine()
        _ = m.handle(.playerVolume(80))
        let first = try #require(waits(m.handle(.command(.sleep(30)))).first)
        // The listener turns it down while the timer waits.
        _ = m.handle(.playerVolume(50))
        var next = try #require(waits(m.handle(.sleepTimer(token: first.1))).first)
        var volumes: [Int] = []
        var last: [RadioEffect] = []
        for _ in 1...10 {
            last = m.handle(.sleepTimer(token: next.1))
            for case .emit(.fading(let volume)) in last { volumes.append(volume) }
            if let wait = waits(last).first { next = wait }
        }
        #expect(volumes == [45, 40, 35, 30, 25, 20, 15, 10, 5, 0])
        #expect(Array(last.suffix(2)) == [.setVolume(50), .quit], "the volume the fade began from goes back")
    }

    @Test func aShortTimerFadesOverItsWholeLengthAndOffPutsTheVolumeBack() throws {
        var m = playingMachine()
        _ = m.handle(.playerVolume(50))
        let set = m.handle(.command(.sleep(2)))
        let first = try #require(waits(set).first)
        #expect(abs(first.0 - 0.2) < 1e-9, "a 2 s timer fades from the start, in steps of 0.2 s")
        let step = m.handle(.sleepTimer(token: first.1))
        #expect(events(step) == [.fading(volume: 45)])
        _ = m.handle(.playerVolume(45))
        // Off midway: the volume goes back, and the pending wait does nothing.
        #expect(m.handle(.command(.sleep(nil))) == [.setVolume(50), .emit(.sleep(seconds: nil))])
        #expect(m.handle(.sleepTimer(token: waits(step).first!.1)).isEmpty)
        #expect(m.sleepTimer.stage == .off)
    }

    @Test func settingItAgainReplacesTheTimerAndTheSnapshotShowsTheEnd() throws {
        var m = playingMachine()
        let old = try #require(waits(m.handle(.command(.sleep(60)))).first)
        let new = try #require(waits(m.handle(.command(.sleep(1800)))).first)
        #expect(new.0 == 1790)
        #expect(m.handle(.sleepTimer(token: old.1)).isEmpty, "the first timer's wait was replaced")
        let ends = Date(timeIntervalSince1970: 1_000_000)
        _ = m.handle(.sleepScheduled(at: ends))
        #expect(m.snapshot.sleepEnds == ends)
        _ = m.handle(.command(.sleep(nil)))
        #expect(m.snapshot.sleepEnds == nil)
    }
}
