import MusicLibrary
import Testing
@testable import SoundFeatures

/// The lines long background work logs while it runs: at most every ten seconds, what is
/// done of what, how fast, how long is left.
struct AnalysisProgressTests {
    private let start = ContinuousClock.now

    @Test("a line is due ten seconds after the start, then ten seconds after the last one")
    func pace() {
        var pace = ProgressPace(started: start)
        let moments: [Double] = [9.9, 10, 19.9, 15, 20.5, 30, 31]
        let due = moments.map { pace.isDue(at: start + .seconds($0)) }
        #expect(due == [false, true, false, false, true, false, true])
    }

    @Test("rates and times left read as a person writes them")
    func words() {
        let pace = ProgressPace(started: start)
        let now = start + .seconds(100)
        #expect(pace.rateText(3800, at: now) == "38 per second")
        #expect(pace.rateText(42, at: now) == "0.4 per second")
        #expect(pace.rateText(0, at: now) == "0 per second")
        #expect(pace.leftText(done: 0, of: 10, at: now) == "time left unknown")
        #expect(pace.leftText(done: 3800, of: 20_000, at: now) == "about 7 min left")
        #expect(pace.leftText(done: 100, of: 140, at: now) == "about 40 s left")
        #expect(pace.leftText(done: 10, of: 1000, at: now) == "about 2 h 45 min left")
        #expect(pace.leftText(done: 60, of: 3660, at: now) == "about 1 h 40 min left")
        // Exactly on the hour: one hour, not sixty minutes.
        #expect(pace.leftText(done: 100, of: 3700, at: now) == "about 1 h 0 min left")
        #expect(pace.leftText(done: 5, of: 5, at: now) == "about 0 s left")
        #expect(ProgressPace(started: start).rate(5, at: start) == 0)
        #expect(ProgressPace.grouped(20_000) == "20 000" && ProgressPace.grouped(4210) == "4 210")
        #expect(ProgressPace.grouped(999) == "999" && ProgressPace.grouped(1_234_567) == "1 234 567" && ProgressPace.grouped(0) == "0")
    }

    @Test("the analysis' progress line counts the songs measured before, and this pass's rate and time left")
    func analysisLine() {
        var round = AnalysisRound(started: start, queued: 15_790, known: 4210 - 400)
        round.measured = 388
        round.unreadable = 12
        #expect(round.progress(at: start + .seconds(10)) ==
                "sound analysis: heard 4 210 of 19 600 songs (12 unreadable), 40 per second, about 6 min left")
    }

    @Test("a scan's progress and closing lines")
    func scanLines() {
        let pace = ProgressPace(started: start)
        #expect(ScanSummary.progress(read: 1200, of: 20_000, seen: 20_500, pace: pace, at: start + .seconds(4)) ==
                "library scan: read 1 200 of 20 000 new or changed files (20 500 seen), 300 per second, about 1 min left")
        let summary = ScanSummary(files: 20_500, tracks: 20_480, read: 1200, added: 800, removed: 3, duration: .seconds(42.4))
        #expect(summary.closing == "library scan: 20 500 files seen, 1 200 read (800 new), 3 gone, in 42 s")
        let quick = ScanSummary(files: 8, tracks: 8, read: 8, added: 8, removed: 0, duration: .milliseconds(43))
        #expect(quick.closing == "library scan: 8 files seen, 8 read (8 new), 0 gone, in 0.0 s")
    }
}
