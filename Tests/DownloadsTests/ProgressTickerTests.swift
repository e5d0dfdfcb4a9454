import Foundation
import Testing
import TestSupport
@testable import Downloads

/// The ticker that holds a transfer's progress to four reports a second: the first of a
/// burst goes through at once, the last after the interval, the ones between never.
struct ProgressTickerTests {
    @Test func theLastReportOfABurstIsDeliveredAfterTheInterval() async throws {
        let ticker = ProgressTicker()
        let delivered = Locked<[Int64]>([])
        for bytes: Int64 in [100, 200, 300] {
            ticker.report(bytes: bytes, total: 1000) { bytes, _ in delivered.withLock { $0.append(bytes) } }
        }
        #expect(delivered.withLock { $0 } == [100])
        let deadline = ContinuousClock.now + .seconds(10)
        while delivered.withLock({ $0.count }) < 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(delivered.withLock { $0 } == [100, 300])
    }
}
