import SeededRandom

/// The songs one draw weighs. A channel of up to ``exactLimit`` songs is weighed whole. A
/// larger one is weighed in two parts: the listener's heavy songs
/// (``DrawTaste/heavyPositions(decisiveness:budget:groupLimit:)``: the songs, artists,
/// albums and genres whose share lifts them well above a typical song, the most lifted
/// first, up to ``heavyBudget`` songs), and a uniform sample of ``sampleSize`` of the
/// others, each sampled song standing for ``scales`` songs of the rest.
///
/// Why it stays fair: the draw takes a song in proportion to its weight. Every heavy song
/// is there with its own weight; the rest's weight is estimated from the sample (its sum
/// times rest ÷ sample is an unbiased estimate of the rest's total), so the chance that a
/// pick comes from the rest, and which of the rest, follow the full draw's on average. A
/// sample misrepresents only a small group of songs that weigh much more than the others,
/// and those are the heavy ones: a group is sampled only when a sample would hold about
/// 32 of its songs (``groupLimit(poolSize:)``), and the sound's share, which is not
/// grouped, is capped at ±1.5 and spread over every song near a liked one.
///
/// Why it exists: a draw over a channel of 50 000 songs weighed every song (an `exp` and
/// the sound's distances each), several milliseconds a list; this bounds the songs weighed
/// by ``heavyBudget`` + ``sampleSize`` whatever the library's size.
package struct DrawPool: Sendable, Equatable {
    /// The songs weighed: heavy ones first (in library order), then the sample (in the
    /// order drawn), none trashed.
    package var positions: [Int]
    /// How many songs of the channel each of ``positions`` stands for: 1 for a heavy song,
    /// rest ÷ sample for a sampled one; empty when the channel is weighed whole.
    package var scales: [Double]

    /// The largest channel weighed whole.
    package static let exactLimit = 512
    /// How many of the rest a larger channel's draw samples.
    package static let sampleSize = 128
    /// The most heavy songs taken whole.
    package static let heavyBudget = 128

    /// The largest group (an artist, album or genre) taken whole among the heavy songs in
    /// a channel of `poolSize`: a larger group has about 32 songs or more in the sample.
    package static func groupLimit(poolSize: Int) -> Int {
        max(1, 32 * poolSize / sampleSize)
    }

    /// The songs a draw of `taste` at `decisiveness` weighs among `pool` (track positions
    /// in library order, trashed ones among them, every one below `trackCount`); the
    /// sample drawn from `random`.
    package static func make(pool: [Int], trackCount: Int, taste: some DrawTaste, decisiveness: Double,
                             random: inout SplitMix64) -> DrawPool {
        guard pool.count > exactLimit else { return DrawPool(positions: taste.untrashed(pool), scales: []) }
        // 1 heavy, 2 sampled: each song counted once.
        var marks = [UInt8](repeating: 0, count: trackCount)
        let everything = pool.count == trackCount
        var heavy: [Int] = []
        for position in taste.heavyPositions(decisiveness: decisiveness, budget: heavyBudget,
                                             groupLimit: groupLimit(poolSize: pool.count))
        where marks[position] == 0 && (everything || Self.contains(pool, position)) {
            marks[position] = 1
            heavy.append(position)
        }
        heavy.sort()
        let rest = pool.count - heavy.count
        let wanted = min(sampleSize, rest)
        // Distinct songs of the pool drawn uniformly; those that are heavy already are
        // drawn again (the sample is of the rest), trashed ones count as drawn and weigh 0.
        var sampled: [Int] = []
        var drawn = 0
        while drawn < wanted {
            let position = pool[random.index(below: pool.count)]
            guard marks[position] == 0 else { continue }
            marks[position] = 2
            drawn += 1
            sampled.append(position)
        }
        let scale = Double(rest) / Double(max(1, drawn))
        let kept = taste.untrashed(heavy), keptSample = taste.untrashed(sampled)
        return DrawPool(positions: kept + keptSample,
                        scales: [Double](repeating: 1, count: kept.count) + [Double](repeating: scale, count: keptSample.count))
    }

    /// Whether the sorted `pool` holds `position`.
    private static func contains(_ pool: [Int], _ position: Int) -> Bool {
        var low = 0, high = pool.count
        while low < high {
            let middle = (low + high) / 2
            if pool[middle] < position { low = middle + 1 } else { high = middle }
        }
        return low < pool.count && pool[low] == position
    }
}
