import Foundation
@testable import Recommender
import SeededRandom
import Testing

/// A draw over a large channel weighs the listener's heavy songs and a sample of the rest
/// (``DrawPool``); these tests hold what it weighs and that its picks follow the weights
/// of the whole channel, not of the sample.
@Suite("Draw pool")
struct DrawPoolTests {
    /// 20 000 tracks: the first `loved` weigh `e^(decisiveness·3)` and are the heavy ones;
    /// positions in `middle` weigh `e^decisiveness`; every 50th of the rest is trashed, every
    /// 7th closed to exploration; the others weigh 1.
    private struct LargeTaste: DrawTaste {
        static let tracks = 20_000
        let loved = 50
        let middle = 10_000..<15_000
        let confidence = 1.0
        func score(_ position: Int) -> Double {
            position < loved ? 3 : middle.contains(position) ? 1 : 0
        }
        func weight(at position: Int, decisiveness: Double) -> Double {
            isTrashed(position) ? 0 : exp(decisiveness * score(position))
        }
        func isTrashed(_ position: Int) -> Bool { position >= loved && position % 50 == 1 }
        func isOpen(_ position: Int) -> Bool { position % 7 != 3 }
        func isNew(_ position: Int) -> Bool { false }
        func artist(at position: Int) -> Int32 { 0 }
        func untrashed(_ positions: [Int]) -> [Int] { positions.filter { !isTrashed($0) } }
        func heavyPositions(decisiveness: Double, budget: Int, groupLimit: Int) -> [Int] {
            Array((0..<loved).reversed()) + [3, 7]
        }
    }

    @Test("a channel up to the limit is weighed whole, without the trashed songs; a larger one as its heavy songs and a sample")
    func whatIsWeighed() {
        let taste = LargeTaste()
        var random = SplitMix64(seed: 1)
        let small = DrawPool.make(pool: Array(0..<DrawPool.exactLimit), trackCount: LargeTaste.tracks, taste: taste,
                                  decisiveness: 1, random: &random)
        #expect(small.positions == Array(0..<DrawPool.exactLimit).filter { !taste.isTrashed($0) })
        #expect(small.scales.isEmpty)

        let pool = Array(0..<LargeTaste.tracks)
        let large = DrawPool.make(pool: pool, trackCount: LargeTaste.tracks, taste: taste, decisiveness: 1, random: &random)
        // The heavy songs once each, in library order, then the sample's untrashed songs.
        #expect(Array(large.positions.prefix(50)) == Array(0..<50))
        let sample = large.positions.dropFirst(50)
        #expect(Set(sample).count == sample.count && sample.allSatisfy { $0 >= 50 && !taste.isTrashed($0) })
        // 128 drawn, the trashed among them left out, each standing for 19 950 / 128 songs.
        #expect(sample.count <= DrawPool.sampleSize && sample.count > DrawPool.sampleSize * 9 / 10)
        #expect(large.scales == [Double](repeating: 1, count: 50)
            + [Double](repeating: 19_950 / Double(DrawPool.sampleSize), count: sample.count))
        // A genre channel: only its members, heavy or sampled.
        let channel = Array(stride(from: 0, to: LargeTaste.tracks, by: 2))
        let members = DrawPool.make(pool: channel, trackCount: LargeTaste.tracks, taste: taste, decisiveness: 1,
                                    random: &random)
        #expect(members.positions.allSatisfy { $0 % 2 == 0 } && members.positions.prefix(25) == ArraySlice(stride(from: 0, to: 50, by: 2)))
        #expect(members.scales.last == Double(10_000 - 25) / Double(DrawPool.sampleSize))
    }

    @Test("the picks from a sampled channel follow the whole channel's weights; exploration stays uniform over it")
    func picksFollowTheWholeChannel() {
        let taste = LargeTaste()
        let recommender = Recommender(seed: 9)
        let pool = Array(0..<LargeTaste.tracks)
        // Variety 0: no exploration, decisiveness 1.75. The whole channel's weights: the
        // loved 50·e^5.25 ≈ 9 500, the middle about 4 900·e^1.75 ≈ 28 200, the rest about 14 650.
        let d = Recommender.decisiveness(variety: 0)
        let weights = pool.map { taste.weight(at: $0, decisiveness: d) }
        let total = weights.reduce(0, +)
        let lovedMass = weights[0..<50].reduce(0, +), middleMass = weights[taste.middle].reduce(0, +)
        var loved = 0, middle = 0, picks = 0
        for draw in 0..<3000 {
            for choice in recommender.pick(from: pool, trackCount: LargeTaste.tracks, window: [], taste: taste,
                                           variety: 0, count: 1, listener: "sampled", draw: UInt64(draw)) {
                #expect(!taste.isTrashed(choice.position) && !choice.explored)
                picks += 1
                if choice.position < 50 { loved += 1 } else if taste.middle.contains(choice.position) { middle += 1 }
            }
        }
        #expect(picks == 3000)
        // Each share within 3 points of the whole channel's (about 6 standard deviations).
        let lovedShare = Double(loved) / 3000, middleShare = Double(middle) / 3000
        #expect(abs(lovedShare - lovedMass / total) < 0.03, "loved \(lovedShare) against \(lovedMass / total)")
        #expect(abs(middleShare - middleMass / total) < 0.03, "middle \(middleShare) against \(middleMass / total)")

        // Variety 1: 30 % exploration, uniform over the open songs of the whole channel, so
        // hardly ever one of the 50 heavy songs (a quarter of a percent of them).
        var explored = 0, exploredHeavy = 0
        for draw in 0..<3000 {
            for choice in recommender.pick(from: pool, trackCount: LargeTaste.tracks, window: [], taste: taste,
                                           variety: 1, count: 1, listener: "sampled", draw: UInt64(draw))
            where choice.explored {
                explored += 1
                if choice.position < 50 { exploredHeavy += 1 }
                #expect(taste.isOpen(choice.position))
            }
        }
        #expect(abs(Double(explored) / 3000 - 0.3) < 0.04 && exploredHeavy <= explored / 50,
                "\(explored) explored, \(exploredHeavy) of them heavy")
    }
}
