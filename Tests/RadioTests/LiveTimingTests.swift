import RadioAPI
import Testing
@testable import Radio

/// The arithmetic of a live channel's listening: which aired song holds a moment, and how
/// far behind the live edge a moment is as the clock runs on from the playlist read.
struct LiveTimingTests {
    static let songs = [
        AiredSong(sid: "3", title: "C", artist: "c", start: 20_000, end: 26_000, url: "u3", onAir: true),
        AiredSong(sid: "2", title: "B", artist: "b", start: 14_500, end: 20_000, url: "u2", onAir: false),
        // Declared longer than it aired: its end overlaps the next song's start.
        AiredSong(sid: "1", title: "A", artist: "a", start: 10_000, end: 15_000, url: "u1", onAir: false),
    ]

    @Test func theSongHeardIsTheLatestToStartThatHoldsTheMoment() {
        #expect(AiredSong.heard(at: 10_000, in: Self.songs)?.sid == "1")
        #expect(AiredSong.heard(at: 14_499, in: Self.songs)?.sid == "1")
        #expect(AiredSong.heard(at: 14_500, in: Self.songs)?.sid == "2")
        #expect(AiredSong.heard(at: 19_999, in: Self.songs)?.sid == "2")
        #expect(AiredSong.heard(at: 20_000, in: Self.songs)?.sid == "3")
        #expect(AiredSong.heard(at: 26_000, in: Self.songs) == nil)
        #expect(AiredSong.heard(at: 9_999, in: Self.songs) == nil)
        #expect(Self.songs[1].track(channel: "4") == Track(sid: "2", title: "B", artist: "b", length: 5.5, url: "u2",
                                                             channel: "4"))
    }

    @Test func behindIsTheDistanceToWhereAJoiningPlayerStarts() {
        let read = ContinuousClock.now
        // Segments of 2 s: the newest ends at 30 s, the third from the end starts at 24 s.
        let timing = LiveTiming(window: LiveWindow(firstStart: 0, joinStart: 24_000, newestEnd: 30_000), readAt: read)
        #expect(timing.window.joinLag == 6_000)
        #expect(timing.edge(at: read) == 30_000)
        #expect(timing.edge(at: read + .milliseconds(1_500)) == 31_500)
        #expect(timing.behind(24_000, at: read) == 0)
        #expect(timing.behind(25_000, at: read + .seconds(1)) == 0)
        #expect(timing.behind(14_000, at: read + .seconds(2)) == 12)
        #expect(timing.behind(27_000, at: read) == 0, "past the joining point is at the edge")
        #expect(LiveStatus(behind: 2.99).atEdge && !LiveStatus(behind: 3).atEdge)
    }

    @Test func timesPast64BitsAreHeldAtTheirEnds() {
        let read = ContinuousClock.now
        let timing = LiveTiming(window: LiveWindow(firstStart: .min, joinStart: .min, newestEnd: .max), readAt: read)
        #expect(timing.window.joinLag == .max)
        #expect(LiveWindow(firstStart: 0, joinStart: .max, newestEnd: .min).joinLag == .min)
        #expect(timing.edge(at: read + .seconds(10)) == .max)
        #expect(timing.liveEdge(at: read) == 0)
        #expect(timing.behind(.min, at: read) == -Double(Int64.min) / 1000)
        #expect(LiveTiming.milliseconds(1e300) == .max && LiveTiming.milliseconds(-.infinity) == .min)
        #expect(LiveTiming.milliseconds(.nan) == 0 && LiveTiming.milliseconds(1.5) == 1_500)
        #expect(LiveTiming.sum(.max, 1) == .max && LiveTiming.sum(.min, -1) == .min && LiveTiming.sum(2, -3) == -1)
        #expect(AiredSong(sid: "1", title: "A", artist: "a", start: .min, end: .max, url: "u", onAir: false).track(channel: "4").length
                == (Double(Int64.max) - Double(Int64.min)) / 1000)
    }
}
