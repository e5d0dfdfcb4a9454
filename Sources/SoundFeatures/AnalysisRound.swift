import MusicLibrary

/// What one pass over a library's unmeasured tracks did: its progress, and the log lines
/// that open and close it.
package struct AnalysisRound: Sendable {
    /// When the pass began.
    package let started: ContinuousClock.Instant
    /// Tracks it set out to measure.
    package let queued: Int
    /// Tracks of the library already measured (or known unreadable) when it began.
    package let known: Int
    /// Tracks measured so far.
    package var measured = 0
    /// Tracks found unreadable so far.
    package var unreadable = 0
    /// Seconds of audio measured so far.
    package var audioSeconds = 0.0
    /// When its next progress line is due.
    package var pace: ProgressPace

    /// A pass begun at `started`, setting out to measure `queued` tracks of a library of
    /// which `known` were measured (or known unreadable) before.
    package init(started: ContinuousClock.Instant, queued: Int, known: Int) {
        self.started = started
        self.queued = queued
        self.known = known
        pace = ProgressPace(started: started)
    }

    /// The opening line.
    var opening: String {
        "sound analysis: \(ProgressPace.grouped(queued)) of \(ProgressPace.counted(queued + known, "track")) to measure"
    }

    /// The line of a pass that found nothing to measure.
    var nothingToMeasure: String {
        "sound analysis: all \(ProgressPace.counted(known, "track")) measured before"
    }

    /// The line saying how far it has come, at most every ``ProgressPace/interval``:
    /// `sound analysis: heard 4 210 of 20 000 songs (12 unreadable), 38 per second, about
    /// 7 min left` (the songs heard counting those measured before; the rate and the time
    /// left, this pass's).
    func progress(at now: ContinuousClock.Instant = .now) -> String {
        let done = measured + unreadable
        return "sound analysis: heard \(ProgressPace.grouped(known + done)) of \(ProgressPace.grouped(known + queued)) songs "
            + "(\(ProgressPace.grouped(unreadable)) unreadable), \(pace.rateText(done, at: now)), "
            + pace.leftText(done: done, of: queued, at: now)
    }

    /// The closing line, with how fast it went (seconds of audio per second of wall time,
    /// over all its threads).
    func closing(threads: Int) -> String {
        let elapsed = started.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let speed = seconds > 0 ? audioSeconds / seconds : 0
        return "sound analysis: measured \(ProgressPace.counted(measured, "track")), \(ProgressPace.grouped(unreadable)) unreadable, in "
            + "\(Int(seconds.rounded())) s on \(threads) threads (\(Int(audioSeconds.rounded())) s of audio, "
            + "\(Int(speed.rounded()))× real time)"
    }
}
