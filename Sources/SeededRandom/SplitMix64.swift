/// A small, fast, seedable random number generator (SplitMix64, Steele, Lea & Flood 2014,
/// as used to seed xoshiro): the same seed always yields the same sequence, on every
/// platform and Swift version. Used where results must be reproducible: the demo library's
/// melodies (so every machine synthesizes the same songs) and song picks when a test fixes
/// ``StationConfiguration/seed``.
///
/// Not for anything secret.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; equal seeds give equal sequences.
    package init(seed: UInt64) {
        state = seed
    }

    /// Creates a generator seeded from the system's generator, for non-reproducible use.
    package init() {
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniformly distributed index below `count` (`count` must be positive).
    package mutating func index(below count: Int) -> Int {
        Int.random(in: 0..<count, using: &self)
    }

    /// A uniformly distributed double in `0..<1` (the top 53 bits).
    package mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A random element of a non-empty array.
    package mutating func pick<T>(_ choices: [T]) -> T {
        choices[index(below: choices.count)]
    }
}
