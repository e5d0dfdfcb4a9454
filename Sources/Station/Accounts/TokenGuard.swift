import Synchronization

/// Keeps token guessing out of reach: per client address, the wrong tokens (and web
/// session cookies) presented lately. Past ``Limits/slowAfter`` of them each further answer to
/// that address waits ``Limits/delay``; past ``Limits/refuseAfter`` the address is refused
/// for ``Limits/lockout`` with `{"r":1,"err":"too_many_attempts"}`, whatever it sends. A right token
/// does not clear the count: a guesser that also holds one valid login gains nothing.
///
/// Requests answered in-process (the embedded station) have no address and are never
/// counted. Memory is bounded: at most ``capacity`` addresses are tracked, the quietest
/// forgotten first.
final class TokenGuard: Sendable {
    /// What the guard says about an address.
    enum Verdict: Sendable, Equatable {
        /// Answer at once.
        case open
        /// Answer after waiting this long.
        case slowed(Duration)
        /// Refuse; the lockout ends after this long.
        case refused(remaining: Duration)
    }

    /// The thresholds.
    struct Limits: Sendable, Equatable {
        /// Wrong tokens after which answers are slowed.
        var slowAfter = 5
        /// Wrong tokens after which the address is refused.
        var refuseAfter = 20
        /// How long a slowed answer waits.
        var delay: Duration = .seconds(1)
        /// How long a refusal lasts, and how long a wrong token counts.
        var lockout: Duration = .seconds(900)
    }

    /// The thresholds in force.
    let limits: Limits
    /// The most addresses remembered.
    static let capacity = 4096

    private struct Record: Sendable {
        var failures: Int
        var last: ContinuousClock.Instant
        var lockedUntil: ContinuousClock.Instant?
    }

    private let records = Mutex<[String: Record]>([:])

    /// Creates a guard (by default: slowed by 1 s after 5 wrong tokens, refused for 15
    /// minutes after 20).
    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// What to do with a request from `address` (nil: in-process, always open).
    func verdict(for address: String?) -> Verdict {
        guard let address else { return .open }
        let now = ContinuousClock.now
        return records.withLock { records in
            guard let record = records[address] else { return .open }
            if let until = record.lockedUntil {
                if until > now { return .refused(remaining: until - now) }
                records[address] = nil
                return .open
            }
            if now - record.last > limits.lockout {
                records[address] = nil
                return .open
            }
            return record.failures >= limits.slowAfter ? .slowed(limits.delay) : .open
        }
    }

    /// Counts a wrong token from `address`.
    func recordFailure(from address: String?) {
        guard let address else { return }
        let now = ContinuousClock.now
        records.withLock { records in
            var record = records[address] ?? Record(failures: 0, last: now, lockedUntil: nil)
            if now - record.last > limits.lockout { record.failures = 0 }
            record.failures += 1
            record.last = now
            if record.failures >= limits.refuseAfter { record.lockedUntil = now + limits.lockout }
            records[address] = record
            if records.count > Self.capacity, let quietest = records.min(by: { $0.value.last < $1.value.last })?.key {
                records[quietest] = nil
            }
        }
    }
}
