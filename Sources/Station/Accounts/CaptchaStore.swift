import Foundation
import Synchronization

/// The captchas handed out by `/j/new_captcha` (docs/PROTOCOL.md §5.2), kept in memory:
/// each one's answer until it is used once, expires after ``lifetime``, or is pushed out by
/// newer ones beyond ``capacity`` (so fetching captchas in a loop cannot grow memory).
///
/// Ids look like Douban's (`"8Z9w6tODHEukHkAmBz52dWg4:en"`); answers are ``answerLength``
/// characters from an alphabet without look-alikes (no 0/O, 1/I), compared without regard
/// to case. Both come from the system's cryptographic generator, never from the station's
/// seed: a seeded station must not hand out predictable captchas.
final class CaptchaStore: Sendable {
    /// How long a captcha can be solved.
    static let lifetime: Duration = .seconds(600)
    /// The most captchas kept at once.
    static let capacity = 1024
    /// Characters of an answer.
    static let answerLength = 5
    /// The answer alphabet: letters and digits that do not look alike when drawn.
    static let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")

    private struct Captcha: Sendable {
        var answer: String
        var issued: ContinuousClock.Instant
    }

    private struct State: Sendable {
        var captchas: [String: Captcha] = [:]
        /// Ids oldest first, for eviction.
        var order: [String] = []
    }

    private let state = Mutex(State())

    /// Creates an empty store.
    init() {}

    /// Makes a new captcha.
    ///
    /// - Returns: its id and a fresh `bid` cookie value for the client.
    func issue() -> (id: String, bid: String) {
        var generator = SystemRandomNumberGenerator()
        let id = String((0..<24).map { _ in WebCookies.idAlphabet.randomElement(using: &generator)! }) + ":en"
        let bid = WebCookies.newBrowserID()
        let answer = String((0..<Self.answerLength).map { _ in Self.alphabet.randomElement(using: &generator)! })
        let now = ContinuousClock.now
        state.withLock { state in
            Self.prune(&state, now: now)
            state.captchas[id] = Captcha(answer: answer, issued: now)
            state.order.append(id)
            while state.order.count > Self.capacity {
                state.captchas[state.order.removeFirst()] = nil
            }
        }
        return (id, bid)
    }

    /// The answer of a live captcha, to draw it; `nil` for unknown, used or expired ids.
    func answer(for id: String) -> String? {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let captcha = state.captchas[id], now - captcha.issued < Self.lifetime else { return nil }
            return captcha.answer
        }
    }

    /// Checks a solution and uses the captcha up, right or wrong: each captcha gets one try.
    func consume(id: String, solution: String) -> Bool {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let captcha = state.captchas.removeValue(forKey: id) else { return false }
            state.order.removeAll { $0 == id }
            guard now - captcha.issued < Self.lifetime else { return false }
            // In constant time, like every secret: the time of a refusal says nothing of
            // how many letters were right.
            return LoginToken.equal(solution.trimmingWhitespace().uppercased(), captcha.answer)
        }
    }

    private static func prune(_ state: inout State, now: ContinuousClock.Instant) {
        while let oldest = state.order.first, let captcha = state.captchas[oldest], now - captcha.issued >= lifetime {
            state.order.removeFirst()
            state.captchas[oldest] = nil
        }
    }
}
