import Scrobble
import Testing

/// Half the length or four minutes of play, for songs over 30 seconds; pauses do not count.
struct ListenTrackerTests {
    private func song(_ duration: Double) -> PlayedSong {
        PlayedSong(artist: "A", title: "T", duration: duration, startedAt: 1)
    }

    @Test func theThresholdIsHalfTheLengthOrFourMinutes() {
        #expect(ListenRule.threshold(duration: 30) == nil)
        #expect(ListenRule.threshold(duration: 0) == nil)
        #expect(ListenRule.threshold(duration: 31) == 15.5)
        #expect(ListenRule.threshold(duration: 480) == 240)
        #expect(ListenRule.threshold(duration: 3600) == 240)
    }

    @Test func aSongCountsOnceAfterHalfItsPlayNotCountingPauses() {
        var tracker = ListenTracker()
        tracker.start(song(100), at: 1000)
        #expect(tracker.remaining(at: 1010) == 40)
        tracker.pause(at: 1010)
        #expect(tracker.remaining(at: 1500) == nil)
        tracker.resume(at: 1500)
        #expect(tracker.takeDue(at: 1539) == nil)
        #expect(tracker.takeDue(at: 1540) == song(100))
        #expect(tracker.takeDue(at: 1600) == nil)
        #expect(tracker.leave(at: 1600) == nil)
    }

    @Test func aSongLeftEarlyOrTooShortNeverCounts() {
        var tracker = ListenTracker()
        tracker.start(song(100), at: 0)
        #expect(tracker.leave(at: 49) == nil)
        tracker.start(song(30), at: 0)
        #expect(tracker.state == .idle)
        #expect(tracker.leave(at: 1000) == nil)
        tracker.start(song(600), at: 0)
        #expect(tracker.remaining(at: 0) == 240)
        tracker.pause(at: 250)
        #expect(tracker.leave(at: 900) == song(600))
    }
}
