@testable import MusicLibrary
@testable import Recommender
import SeededRandom
import Testing

/// A listener's sound scores are kept up to date song by song rather than computed again
/// from every remembered song; these tests hold the two ways to the same numbers, bit for
/// bit, through long runs of likes, unlikes, skips and windows moving on.
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

    /// Every part and nearest liked song of `kept` equals those of a fresh build.
    private static func expectSame(_ kept: SoundAffinity, _ fresh: SoundAffinity, step: Int) {
        var differences = 0
        for position in 0..<table.trackCount
        where kept.part(at: position) != fresh.part(at: position)
            || kept.nearestLikedSong(to: position) != fresh.nearestLikedSong(to: position) {
            differences += 1
        }
        #expect(differences == 0, "step \(step): \(differences) tracks differ")
    }

    @Test("distances(from:) is distance(_:_:) for every track, .infinity where either is not measured; nearest(to:among:) the closest")
    func bulkDistances() {
        let table = Self.table
        for from in [0, 4, 17, 399] {
            let all = table.distances(from: from)
            #expect(all.count == 400)
            for position in 0..<400 {
                #expect(all[position] == (table.distance(position, from) ?? .infinity), "\(position) from \(from)")
            }
        }
        #expect(table.distances(from: 4).allSatisfy { $0 == .infinity })
        // The nearest among a set: the last of the closest, not-measured members passed over.
        let among = [4, 30, 17, 250, 17]
        let nearest = table.nearest(to: 0, among: among)
        let expected = among.filter { $0 != 4 }.reversed().min { table.distance(0, $0)! < table.distance(0, $1)! }
        #expect(nearest?.position == expected && nearest?.distance == table.distance(0, expected!))
        #expect(table.nearest(to: 4, among: among) == nil && table.nearest(to: 0, among: [4, 13]) == nil)
        #expect(table.distances(from: 0)[0] == 0)
    }

    @Test("kept up to date through 300 random reports, it scores every track as a fresh build does")
    func incrementalMatchesFresh() {
        var random = SplitMix64(seed: 25)
        var liked: [Int] = [], disliked: [Int] = []
        var kept = SoundAffinity(key: Self.key(0), space: Self.table, liked: [], disliked: [])
        #expect(kept.part(at: 0) == 0 && kept.nearestLikedSong(to: 0) == nil)
        var removals = 0
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
            kept.update(key: Self.key(UInt64(step)), space: Self.table, liked: liked, disliked: disliked)
            let fresh = SoundAffinity(key: Self.key(UInt64(step)), space: Self.table, liked: liked, disliked: disliked)
            Self.expectSame(kept, fresh, step: step)
        }
        // The run went past the window and took songs out: both ways were exercised.
        #expect(liked.count > SoundAffinity.memory && removals > 20)
        #expect((0..<400).contains { kept.part(at: $0) > 0 } && (0..<400).contains { kept.part(at: $0) < 0 })
    }

    @Test("on a library of copies every tie goes to the newest song, kept and fresh alike")
    func tiesGoToTheNewest() {
        // 120 tracks that are copies of three sounds; every ninth track not measured.
        let sounds: [[Float]] = [[0, 0], [3, 1], [1, 4]]
        let table = SoundTable(trackCount: 120, weights: [1, 1]) { $0 % 9 == 4 ? nil : sounds[$0 % 3] }
        func key(_ revision: Int) -> SoundAffinity.Key {
            SoundAffinity.Key(generation: 2, analysed: table.analysedCount, revision: UInt64(revision))
        }
        // Tracks 0, 3 and 6 sound alike: a track of that sound is nearest the newest of them.
        var kept = SoundAffinity(key: key(0), space: table, liked: [0, 3, 6], disliked: [])
        #expect(kept.nearestLikedSong(to: 9) == 6 && kept.nearestLikedSong(to: 0) == 6)
        kept.update(key: key(1), space: table, liked: [3, 6, 12], disliked: [])
        #expect(kept.nearestLikedSong(to: 9) == 12)
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
            kept.update(key: key(step), space: table, liked: liked, disliked: disliked)
            let fresh = SoundAffinity(key: key(step), space: table, liked: liked, disliked: disliked)
            let differing = (0..<120).filter {
                kept.part(at: $0) != fresh.part(at: $0) || kept.nearestLikedSong(to: $0) != fresh.nearestLikedSong(to: $0)
            }
            #expect(differing.isEmpty, "step \(step): \(differing)")
            // The newest remembered liked song of a track's sound is its nearest.
            let memory = liked.suffix(SoundAffinity.memory).filter { table.isAnalysed($0) }
            for track in [0, 1, 2] {
                let newest = memory.last { $0 % 3 == track % 3 }
                if let newest { #expect(kept.nearestLikedSong(to: track) == newest, "step \(step), track \(track)") }
            }
        }
    }

    @Test("emptied lists score nothing; a new table starts over")
    func emptiedAndNewTable() {
        var kept = SoundAffinity(key: Self.key(0), space: Self.table, liked: [1, 2], disliked: [3])
        #expect(kept.nearestLikedSong(to: 1) == 1 && kept.part(at: 1) > 0 && kept.part(at: 3) < 0)
        kept.update(key: Self.key(1), space: Self.table, liked: [], disliked: [])
        #expect((0..<400).allSatisfy { kept.part(at: $0) == 0 && kept.nearestLikedSong(to: $0) == nil })
        // A table with fewer tracks measured: every distance is taken again from it.
        let fewer = SoundTable(trackCount: 400, weights: [1]) { $0 < 10 ? [Float($0)] : nil }
        kept.update(key: Self.key(2, analysed: fewer.analysedCount), space: fewer, liked: [2], disliked: [8])
        let fresh = SoundAffinity(key: Self.key(2, analysed: fewer.analysedCount), space: fewer, liked: [2], disliked: [8])
        for position in 0..<400 {
            #expect(kept.part(at: position) == fresh.part(at: position), "\(position)")
        }
        #expect(kept.part(at: 2) == SoundAffinity.cap && kept.part(at: 200) == 0)
    }
}
