/// How long work in the background (a first scan, the sound analysis of a large library)
/// says how far it has come: at most once every ``interval``, with the rate so far and the
/// time it leaves, in the words of a log line. One pace for every such line, so they read
/// alike.
package struct ProgressPace: Sendable {
    /// The least time between two progress lines: often enough to show the work is alive,
    /// rarely enough that hours of it leave a readable log.
    package static let interval: Duration = .seconds(10)

    /// When the work began.
    package let started: ContinuousClock.Instant
    /// When the last line was due (the start, before the first).
    private var last: ContinuousClock.Instant

    /// A pace for work that began at `started`.
    package init(started: ContinuousClock.Instant = .now) {
        self.started = started
        last = started
    }

    /// Whether a progress line is due at `now` (``interval`` since the last one, or since
    /// the start); when it is, `now` counts as its moment.
    package mutating func isDue(at now: ContinuousClock.Instant = .now) -> Bool {
        guard last.duration(to: now) >= Self.interval else { return false }
        last = now
        return true
    }

    /// Items per second since the start, for `done` items at `now`; 0 before any time passed.
    package func rate(_ done: Int, at now: ContinuousClock.Instant = .now) -> Double {
        let elapsed = Self.seconds(started.duration(to: now))
        return elapsed > 0 ? Double(max(0, done)) / elapsed : 0
    }

    /// `"38 per second"`, `"0.4 per second"`: the rate of `done` items at `now`.
    package func rateText(_ done: Int, at now: ContinuousClock.Instant = .now) -> String {
        let rate = rate(done, at: now)
        return rate >= 10 || rate == 0 ? "\(Self.whole(rate)) per second" : "\((rate * 10).rounded() / 10) per second"
    }

    /// `"about 7 min left"` for `done` of `total` items at the rate so far; `"time left
    /// unknown"` before the first item.
    package func leftText(done: Int, of total: Int, at now: ContinuousClock.Instant = .now) -> String {
        let rate = rate(done, at: now)
        guard rate > 0 else { return "time left unknown" }
        let seconds = Double(max(0, total - done)) / rate
        guard seconds.isFinite, seconds < 1e9 else { return "time left unknown" }
        let whole = Int(seconds.rounded(.up))
        guard whole >= 60 else { return "about \(whole) s left" }
        let minutes = (whole + 30) / 60
        return minutes < 60 ? "about \(minutes) min left" : "about \(minutes / 60) h \(minutes % 60) min left"
    }

    /// `count` and `noun`, the noun plural but for one: `1 file`, `20 000 files`.
    package static func counted(_ count: Int, _ noun: String) -> String {
        "\(grouped(count)) \(noun)\(count == 1 ? "" : "s")"
    }

    /// `count` with its thousands apart, as people write them in a log: `20 000`.
    package static func grouped(_ count: Int) -> String {
        let digits = String(count.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(" ") }
            out.append(digit)
        }
        return count < 0 ? "-" + out : out
    }

    private static func whole(_ value: Double) -> Int {
        value.isFinite && value < 1e15 ? Int(value.rounded()) : 0
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
