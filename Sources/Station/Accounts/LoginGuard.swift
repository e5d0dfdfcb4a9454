/// Keeps password guessing from one address out of reach, whatever names it tries: the
/// per-name captcha (``AccountStore/captchaThreshold``) does nothing against an address
/// that tries each name only twice.
///
/// Both families' failed logins count together, per address: an unknown account, a wrong
/// password, a wrong captcha. From ``TokenGuard/Limits/slowAfter`` failures on, an app
/// login from that address needs a captcha as a name past its threshold does (web logins
/// always need one); at ``TokenGuard/Limits/refuseAfter`` the address is refused for
/// ``TokenGuard/Limits/lockout`` without its password being checked. A failure counts for
/// ``TokenGuard/Limits/lockout`` after the last one, and a successful login does not clear
/// the count (a guesser that also holds one account gains nothing).
///
/// Requests answered in-process (no address) are never counted. The counting is
/// ``TokenGuard``'s, in an instance of its own.
final class LoginGuard: Sendable {
    /// What the guard says about a login from an address.
    enum Verdict: Sendable, Equatable {
        /// Check the login as usual.
        case open
        /// Check it only with a captcha solved right.
        case captchaRequired
        /// Refuse it without checking anything.
        case refused
    }

    /// The default thresholds: a captcha from the 5th failure in a row, refused for 15
    /// minutes at the 20th; the delay is unused (bcrypt already makes each try slow).
    static let limits = TokenGuard.Limits(slowAfter: 5, refuseAfter: 20, delay: .zero, lockout: .seconds(900))

    private let counter: TokenGuard
    /// Called at each failure counted (the station's metrics count them).
    private let failed: @Sendable () -> Void

    /// Creates a guard with these thresholds (``limits`` unless tests say otherwise),
    /// calling `failed` at each failure.
    init(limits: TokenGuard.Limits = LoginGuard.limits, failed: @escaping @Sendable () -> Void = {}) {
        counter = TokenGuard(limits: limits)
        self.failed = failed
    }

    /// What to do with a login from `address` (nil: in-process, always open).
    func verdict(for address: String?) -> Verdict {
        switch counter.verdict(for: address) {
        case .open: .open
        case .slowed: .captchaRequired
        case .refused: .refused
        }
    }

    /// Counts a failed login from `address`.
    func recordFailure(from address: String?) {
        counter.recordFailure(from: address)
        failed()
    }
}
