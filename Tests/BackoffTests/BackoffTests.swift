import Backoff
import Testing

/// The one retry schedule: exact nominal waits, the cap, and jitter that only shortens.
struct BackoffTests {
    @Test func waitsDoubleFromTheFirstUpToTheCap() {
        let backoff = Backoff(initial: 1, cap: 30)
        #expect((0..<8).map { backoff.delay(attempt: $0) } == [1, 2, 4, 8, 16, 30, 30, 30])
        #expect(backoff.attemptAtLongest == 5)
        #expect(backoff.delay(attempt: Int.max) == 30, "any attempt number is safe")
    }

    @Test func anOtherMultiplierAndAConstantSchedule() {
        let steep = Backoff(initial: 0.5, multiplier: 3, cap: 8)
        #expect((0..<5).map { steep.delay(attempt: $0) } == [0.5, 1.5, 4.5, 8, 8])
        let constant = Backoff.constant(5)
        #expect((0..<3).map { constant.delay(attempt: $0) } == [5, 5, 5])
        #expect(constant.attemptAtLongest == 0)
        #expect(Backoff(initial: 0, cap: 10).delay(attempt: 4) == 0, "a zero start never grows")
    }

    @Test func outOfRangeSettingsAreClamped() {
        let odd = Backoff(initial: -1, multiplier: 0.5, cap: -3, jitter: 7)
        #expect(odd == Backoff(initial: 0, multiplier: 1, cap: 0, jitter: 1))
        #expect(Backoff(initial: 4, cap: 2).cap == 4, "the cap is never below the first wait")
    }

    @Test func jitterOnlyShortensAndStaysWithinItsFraction() {
        let backoff = Backoff(initial: 10, cap: 10, jitter: 0.25)
        var generator = SplitMixForTests(seed: 42)
        let waits = (0..<500).map { _ in backoff.jittered(10, using: &generator) }
        #expect(waits.allSatisfy { $0 >= 7.5 && $0 <= 10 })
        #expect(Set(waits).count > 400, "the waits are spread, not one value")
        #expect(waits.min()! < 7.7 && waits.max()! > 9.8, "the whole range is used")
        #expect(Backoff(initial: 10, cap: 10).jittered(10) == 10, "no jitter waits exactly")
    }
}

/// A seeded generator, so the jitter test is the same on every run.
struct SplitMixForTests: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
