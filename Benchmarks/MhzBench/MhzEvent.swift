import Foundation

/// One JSON line of headless mhz, with the instant the benchmark read it.
struct MhzEvent: Sendable {
    /// `event`: playing, skipped, status, error, …
    let name: String
    /// The song's id, when the event names one.
    let sid: String?
    /// `position` of a `status` answer (seconds, rounded to 0.1 by mhz).
    let position: Double?
    /// `pending_reports` of a `status` answer: reports waiting in the outbox (0 when absent).
    let pendingReports: Int
    /// The whole line, for error messages.
    let line: String
    /// When it was read from mhz's standard output.
    let at: ContinuousClock.Instant

    /// Parses a line; nil for anything that is not a JSON object with an `event`.
    init?(_ line: String, at instant: ContinuousClock.Instant) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let name = object["event"] as? String else { return nil }
        self.name = name
        sid = object["sid"] as? String
        position = (object["position"] as? Double) ?? (object["position"] as? Int).map(Double.init)
        pendingReports = (object["pending_reports"] as? Int) ?? 0
        self.line = line
        at = instant
    }
}
