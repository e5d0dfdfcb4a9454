import Synchronization

/// Keeps token guessing out of reach: per client address, the wrong tokens (and web
/// session cookies) presented lately. Past ``slowAfter`` of them each further answer to
/// that address waits ``delay``; past ``refuseAfter`` the address is refused for
/// ``lockout`` with `{"r":1,"err":"too_many_attempts"}`, whatever it sends. A right token
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

    /// Wrong tokens after which answers are slowed.
    let slowAfter: Int
    /// Wrong tokens after which the address is refused.
    let refuseAfter: Int
    /// How long a slowed answer waits.
    let delay: Duration
    /// How long a refusal lasts, and how long a wrong token counts.
    let lockout: Duration
    /// The most addresses remembered.
    static let capacity = 4096

    private struct Record: Sendable {
        var failures: Int
        var last: ContinuousClock.Instant
        var lockedUntil: ContinuousClock.Instant?
    }

    private let records = Mutex<[String: Record]>([:])

    /// Creates a guard.
    ///
    /// - Parameters:
    ///   - slowAfter: wrong tokens before answers slow down (default 5).
    ///   - refuseAfter: wrong tokens before the address is refused (default 20).
    ///   - delay: the wait of a slowed answer (default 1 s).
    ///   - lockout: how long a refusal lasts and a failure counts (default 15 minutes).
    init(slowAfter: Int = 5, refuseAfter: Int = 20, delay: Duration = .seconds(1), lockout: Duration = .seconds(900)) {
        self.slowAfter = slowAfter
        self.refuseAfter = refuseAfter
        self.delay = delay
        self.lockout = lockout
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
            if now - record.last > lockout {
                records[address] = nil
                return .open
            }
            return record.failures >= slowAfter ? .slowed(delay) : .open
        }
    }

    /// Counts a wrong token from `address`.
    func recordFailure(from address: String?) {
        guard let address else { return }
        let now = ContinuousClock.now
        records.withLock { records in
            var record = records[address] ?? Record(failures: 0, last: now, lockedUntil: nil)
            if now - record.last > lockout { record.failures = 0 }
            record.failures += 1
            record.last = now
            if record.failures >= refuseAfter { record.lockedUntil = now + lockout }
            records[address] = record
            if records.count > Self.capacity, let quietest = records.min(by: { $0.value.last < $1.value.last })?.key {
                records[quietest] = nil
            }
        }
    }
}
