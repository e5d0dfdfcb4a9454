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
        #expect(delivered.value == [100])
        try await waitUntil("the burst's last report") { delivered.value.count >= 2 }
        // A report within the next interval is held to its end, which comes after anything
        // left of the first burst would have been delivered.
        ticker.report(bytes: 400, total: 1000) { bytes, _ in delivered.withLock { $0.append(bytes) } }
        try await waitUntil("the next interval's report") { delivered.value.contains(400) }
        #expect(delivered.value == [100, 300, 400])
    }
}

/// The rate a progress line shows, which the command line turns into whole bytes.
struct RateMeterTests {
    @Test func samplesAMomentApartMakeNoRateAndSecondsApartTheirRate() {
        let start = ContinuousClock.now
        var meter = RateMeter()
        meter.add(bytes: 0, at: start)
        meter.add(bytes: 1_000_000, at: start + .microseconds(500))
        #expect(meter.rate == 0)
        meter.add(bytes: 2_000_000, at: start + .seconds(2))
        #expect(meter.rate == 1_000_000)
    }
}
