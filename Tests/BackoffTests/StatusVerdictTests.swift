import Backoff
import Testing

/// The one rule of which statuses say "not now": every status of HTTP's classes (and a few
/// outside them) gets exactly the verdict the table in `StatusVerdict` gives it.
struct StatusVerdictTests {
    @Test func everyStatusHasTheVerdictOfTheTable() {
        for status in [-1, 0, 99, 100, 101, 199, 300, 301, 304, 399, 400, 401, 403, 404, 407, 409, 410, 416, 428,
                       430, 451, 499, 600, 999] {
            #expect(StatusVerdict(status: status) == .refused, "\(status)")
        }
        for status in [200, 201, 204, 206, 299] { #expect(StatusVerdict(status: status) == .success, "\(status)") }
        for status in [408, 429, 502, 503, 504] { #expect(StatusVerdict(status: status) == .notNow, "\(status)") }
        for status in [500, 501, 505, 507, 511, 599] { #expect(StatusVerdict(status: status) == .serverError, "\(status)") }
    }

    @Test func theTwoQuestionsAreAskedOfTheVerdicts() {
        #expect([StatusVerdict.success, .notNow, .serverError, .refused].map(\.isNotNow) == [false, true, false, false])
        #expect([StatusVerdict.success, .notNow, .serverError, .refused].map(\.mayPassLater) == [false, true, true, false])
    }
}
