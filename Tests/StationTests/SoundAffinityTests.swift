@testable import MusicLibrary
@testable import Recommender
import SeededRandom
import Testing

/// A listener's sound scores are computed when a draw asks, for the tracks it weighs, from
/// the nearest remembered liked and disliked songs; these tests hold them to the formula
/// summed from single distances, bit for bit, through long runs of likes, unlikes, skips
/// and windows moving on.
@Suite("Sound affinity")
struct SoundAffinityTests {
    /// 400 tracks with 6 features each, every ninth not measured.
    private static let table: SoundTable = {
        var random = SplitMix64(seed: 7)
        let rows = (0..<400).map { _ in (0..<6).map { _ in Float(random.unit() * 10) } }
        return SoundTable(trackCount: 400, weights: [1, 2, 1, 3, 1, 1]) { $0 % 9 == 4 ? nil : rows[$0] }
    }()

    private static func key(_ revision: UInt64, analysed: Int = table.analysedCount) -> SoundAffinity.Key {
        SoundAffinity.Key(generation: 1, analysed: analysed, revision: revision)
    }

    /// The part of `position` worked out from single distances: the nearest of the measured
    /// songs among the last ``SoundAffinity/memory`` of each list.
    private static func expectedPart(_ position: Int, liked: [Int], disliked: [Int], table: SoundTable) -> Double {
        let likedKept = liked.suffix(SoundAffinity.memory).filter { table.isAnalysed($0) }
        let dislikedKept = disliked.suffix(SoundAffinity.memory).filter { table.isAnalysed($0) }
        if likedKept.isEmpty, dislikedKept.isEmpty { return 0 }
        guard table.isAnalysed(position) else { return 0 }
        let typical = SoundAffinity.typicalDistance
        let near = likedKept.isEmpty ? typical : likedKept.map { table.distance(position, $0)! }.min()!
        let far = dislikedKept.isEmpty ? typical : dislikedKept.map { table.distance(position, $0)! }.min()!
        return min(max(SoundAffinity.soundGain * Double(far - near), -SoundAffinity.cap), SoundAffinity.cap)
    }

    @Test("nearestDistances(from:among:) is the least distance(_:_:), .infinity where nothing is measured; nearest(to:among:) the closest")
    func bulkDistances() {
        let table = Self.table
        let among = [4, 30, 17, 250, 17, 399, 1, 88]
        let all = table.nearestDistances(from: Array(0..<400), among: among)
        #expect(all.count == 400)
        for position in 0..<400 {
            let expected = among.compactMap { table.distance(position, $0) }.min() ?? .infinity
            #expect(all[position] == expected, "\(position)")
            #expect(all[position] == (table.nearestDistance(to: position, among: among, atLeast: 0) ?? .infinity))
        }
        #expect(all[4] == .infinity && all[30] == 0)
        #expect(table.nearestDistances(from: [0, 1], among: [4, 13]) == [.infinity, .infinity])
        // The nearest among a set: the last of the closest, not-measured members passed over.
        let nearest = table.nearest(to: 0, among: among)
        let expected = among.filter { $0 != 4 }.reversed().min { table.distance(0, $0)! < table.distance(0, $1)! }
        #expect(nearest?.position == expected && nearest?.distance == table.distance(0, expected!))
        #expect(table.nearest(to: 4, among: among) == nil && table.nearest(to: 0, among: [4, 13]) == nil)
    }

    @Test("through 300 random reports, every track scores as the formula over single distances says")
    func partsFollowTheFormula() {
        var random = SplitMix64(seed: 25)
        var liked: [Int] = [], disliked: [Int] = []
        let empty = SoundAffinity(key: Self.key(0), space: Self.table, liked: [], disliked: [])
        #expect(empty.part(at: 0) == 0 && empty.nearestLikedSong(to: 0) == nil && empty.isEmpty)
        var removals = 0, positives = 0, negatives = 0
        for step in 1...300 {
            let position = random.index(below: 400)
            switch random.index(below: 5) {
            case 0, 1:
                liked.removeAll { $0 == position }
                liked.append(position)
            case 2 where !liked.isEmpty:
                liked.remove(at: random.index(below: liked.count))
                removals += 1
            case 3:
                disliked.removeAll { $0 == position }
                disliked.append(position)
            default:
                if disliked.count > 3 { disliked.removeFirst(); removals += 1 }
            }
            let affinity = SoundAffinity(key: Self.key(UInt64(step)), space: Self.table, liked: liked, disliked: disliked)
            let parts = affinity.parts(of: Array(0..<400))
            var differences = 0
            for position in 0..<400 {
                let expected = Self.expectedPart(position, liked: liked, disliked: disliked, table: Self.table)
                if parts[position] != expected || affinity.part(at: position) != expected { differences += 1 }
                if expected > 0 { positives += 1 } else if expected < 0 { negatives += 1 }
            }
            #expect(differences == 0, "step \(step): \(differences) tracks differ")
        }
        // The run went past the memory and took songs out: both sides were exercised.
        #expect(liked.count > SoundAffinity.memory && removals > 20 && positives > 0 && negatives > 0)
    }

    @Test("on a library of copies every tie goes to the newest song")
    func tiesGoToTheNewest() {
        // 120 tracks that are copies of three sounds; every ninth track not measured.
        let sounds: [[Float]] = [[0, 0], [3, 1], [1, 4]]
        let table = SoundTable(trackCount: 120, weights: [1, 1]) { $0 % 9 == 4 ? nil : sounds[$0 % 3] }
        func key(_ revision: Int) -> SoundAffinity.Key {
            SoundAffinity.Key(generation: 2, analysed: table.analysedCount, revision: UInt64(revision))
        }
        // Tracks 0, 3 and 6 sound alike: a track of that sound is nearest the newest of them.
        let first = SoundAffinity(key: key(0), space: table, liked: [0, 3, 6], disliked: [])
        #expect(first.nearestLikedSong(to: 9) == 6 && first.nearestLikedSong(to: 0) == 6)
        let second = SoundAffinity(key: key(1), space: table, liked: [3, 6, 12], disliked: [])
        #expect(second.nearestLikedSong(to: 9) == 12)
        var random = SplitMix64(seed: 3)
        var liked: [Int] = [3, 6, 12], disliked: [Int] = []
        for step in 2...200 {
            let position = random.index(below: 120)
            switch random.index(below: 4) {
            case 0: liked.removeAll { $0 == position }; liked.append(position)
            case 1: disliked.removeAll { $0 == position }; disliked.append(position)
            case 2 where !liked.isEmpty: liked.removeFirst()
            default: if !disliked.isEmpty { disliked.removeFirst() }
            }
            let affinity = SoundAffinity(key: key(step), space: table, liked: liked, disliked: disliked)
            let differing = (0..<120).filter {
                affinity.part(at: $0) != Self.expectedPart($0, liked: liked, disliked: disliked, table: table)
            }
            #expect(differing.isEmpty, "step \(step): \(differing)")
            // The newest remembered liked song of a track's sound is its nearest.
            let memory = liked.suffix(SoundAffinity.memory).filter { table.isAnalysed($0) }
            for track in [0, 1, 2] {
                let newest = memory.last { $0 % 3 == track % 3 }
                if let newest { #expect(affinity.nearestLikedSong(to: track) == newest, "step \(step), track \(track)") }
            }
        }
    }

    @Test("no remembered song scores nothing; a table with fewer tracks measured scores from those")
    func emptiedAndNewTable() {
        let some = SoundAffinity(key: Self.key(0), space: Self.table, liked: [1, 2], disliked: [3])
        #expect(some.nearestLikedSong(to: 1) == 1 && some.part(at: 1) > 0 && some.part(at: 3) < 0)
        let none = SoundAffinity(key: Self.key(1), space: Self.table, liked: [], disliked: [])
        #expect((0..<400).allSatisfy { none.part(at: $0) == 0 && none.nearestLikedSong(to: $0) == nil })
        #expect(none.parts(of: [1, 2, 3]) == [0, 0, 0])
        // A table with fewer tracks measured: the songs not measured are not remembered.
        let fewer = SoundTable(trackCount: 400, weights: [1]) { $0 < 10 ? [Float($0)] : nil }
        let affinity = SoundAffinity(key: Self.key(2, analysed: fewer.analysedCount), space: fewer,
                                     liked: [2, 300], disliked: [8])
        for position in 0..<400 {
            #expect(affinity.part(at: position) == Self.expectedPart(position, liked: [2, 300], disliked: [8], table: fewer),
                    "\(position)")
        }
        #expect(affinity.part(at: 2) == SoundAffinity.cap && affinity.part(at: 200) == 0)
    }
}
