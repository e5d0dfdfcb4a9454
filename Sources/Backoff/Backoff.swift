/// How long to wait before trying again after a failure, growing with each failure in a
/// row: `initial`, then `initial × multiplier`, … never more than `cap`.
///
/// mhz has one such schedule for everything that retries: the HTTP layer's quick retries
/// of one request, the radio asking the station again for songs, the report outbox trying
/// its line again, and downloads. Each owner keeps its own count of failures in a row and
/// asks for the wait of that attempt.
///
/// Jitter spreads retries of many clients (or of mhz's own independent retry loops) so
/// they do not hit a recovering station in lockstep. It only ever shortens a wait — each
/// wait is drawn from `[nominal × (1 − jitter), nominal]` — so `cap` stays a true upper bound,
/// and it is applied by whoever performs the wait, so the pure parts that decide the
/// schedule (the radio's state machine) stay deterministic.
public struct Backoff: Sendable, Equatable {
    /// Seconds to wait before the first retry.
    public var initial: Double
    /// How many times longer each further wait is than the one before.
    public var multiplier: Double
    /// The longest wait, in seconds.
    public var cap: Double
    /// The fraction (0–1) of each wait that is left to chance; 0 waits exactly.
    public var jitter: Double

    /// Creates a schedule. Negative values count as 0, a multiplier below 1 as 1, a cap below
    /// `initial` as `initial`, and jitter is kept within 0–1.
    public init(initial: Double, multiplier: Double = 2, cap: Double, jitter: Double = 0) {
        self.initial = max(0, initial)
        self.multiplier = max(1, multiplier)
        self.cap = max(self.initial, cap)
        self.jitter = min(1, max(0, jitter))
    }

    /// The same wait every time.
    public static func constant(_ seconds: Double, jitter: Double = 0) -> Backoff {
        Backoff(initial: seconds, multiplier: 1, cap: seconds, jitter: jitter)
    }

    /// The nominal wait before retry number `attempt` (0 for the first retry), without jitter.
    public func delay(attempt: Int) -> Double {
        guard growing else { return initial }
        var delay = initial
        var step = 0
        // Multiplying step by step (rather than `pow`) keeps this free of Foundation and
        // stops as soon as the cap is reached, so any attempt number is safe.
        while step < attempt, delay < cap {
            delay *= multiplier
            step += 1
        }
        return min(delay, cap)
    }

    /// The first attempt whose wait is the longest this schedule makes: every retry from
    /// there on waits the same (an owner that wants "the longest wait from now on", such as
    /// a radio giving up on a broken list for a while, continues its count from here).
    public var attemptAtLongest: Int {
        guard growing else { return 0 }
        var attempt = 0
        while delay(attempt: attempt) < cap { attempt += 1 }
        return attempt
    }

    /// Whether waits grow at all: a zero start or a multiplier of 1 never reaches a larger cap.
    private var growing: Bool { initial > 0 && multiplier > 1 }

    /// `nominal` with this schedule's jitter applied: a wait drawn uniformly from
    /// `[nominal × (1 − jitter), nominal]`.
    public func jittered(_ nominal: Double, using generator: inout some RandomNumberGenerator) -> Double {
        guard jitter > 0, nominal > 0 else { return nominal }
        return nominal * (1 - jitter * Double.random(in: 0...1, using: &generator))
    }

    /// `nominal` with this schedule's jitter applied, drawn from the system's generator.
    public func jittered(_ nominal: Double) -> Double {
        var generator = SystemRandomNumberGenerator()
        return jittered(nominal, using: &generator)
    }

    /// The wait before retry number `attempt`, jitter applied.
    public func wait(attempt: Int) -> Double { jittered(delay(attempt: attempt)) }
}
