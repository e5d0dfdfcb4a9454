import Foundation
@testable import Recommender
@testable import SeededRandom
import Testing

/// A listener's heavy songs and groups are kept sorted report by report
/// (``HeavyUnits``), and a draw walks them: what it chooses must be what a scan of every
/// unit, cut by bands of a quarter of share, chooses.
@Suite("Heavy units")
struct HeavyUnitsTests {
    /// The selection as first written: every unit scanned, songs counted per band, the bands
    /// above the one where `budget` runs out taken whole, then that band's units sorted and
    /// taken while they fit.
    private static func scanned(_ all: [HeavyUnits.Unit], budget: Int, groupLimit: Int) -> [HeavyUnits.Unit] {
        let units = all.filter {
            $0.share >= HeavyUnits.threshold && $0.count > 0 && $0.count <= groupLimit && $0.count <= budget
        }
        func band(_ share: Double) -> Int { min(31, Int(share * 4)) }
        var songsInBand = [Int](repeating: 0, count: 32)
        for unit in units { songsInBand[band(unit.share)] += unit.count }
        var cut = 31, taken = 0
        while cut > 0, taken + songsInBand[cut] <= budget {
            taken += songsInBand[cut]
            cut -= 1
        }
        var edge = units.filter { band($0.share) == cut }
        edge.sort { ($0.share, -$0.count, -$0.kind.rawValue, -$0.id) > ($1.share, -$1.count, -$1.kind.rawValue, -$1.id) }
        var chosen = units.filter { band($0.share) > cut }
        var count = chosen.reduce(0) { $0 + $1.count }
        for unit in edge where count + unit.count <= budget {
            chosen.append(unit)
            count += unit.count
        }
        return chosen
    }

    private static func sorted(_ units: [HeavyUnits.Unit]) -> [HeavyUnits.Unit] {
        units.sorted { $0.precedes($1) }
    }

    @Test("the walk over the sorted units chooses what the scan of every unit chose, over 2 000 random sets")
    func walkMatchesScan() {
        var random = SplitMix64(seed: 7)
        let kinds: [HeavyUnits.Kind] = [.song, .artist, .album, .genre]
        var cutInsideABand = 0
        for round in 0..<2_000 {
            let size = random.index(below: 400)
            // Few distinct shares, so bands and ties are crowded, as a listener's hearts are.
            let units = (0..<size).map { id in
                let kind = kinds[random.index(below: kinds.count)]
                return HeavyUnits.Unit(share: Double(random.index(below: 40)) / 8 - 0.5,
                                       count: kind == .song ? 1 : random.index(below: 60),
                                       kind: kind, id: id % 97)
            }
            let budget = 1 + random.index(below: 200), groupLimit = 1 + random.index(below: 80)
            let heavy = HeavyUnits(units)
            #expect(heavy.units.allSatisfy { $0.share >= HeavyUnits.threshold && $0.count > 0 })
            #expect(zip(heavy.units, heavy.units.dropFirst()).allSatisfy { !$1.precedes($0) })
            let walked = HeavyUnits.chosen(from: heavy.units, budget: budget, groupLimit: groupLimit)
            let expected = Self.scanned(units, budget: budget, groupLimit: groupLimit)
            #expect(Self.sorted(walked) == Self.sorted(expected), "round \(round)")
            #expect(walked.reduce(0) { $0 + $1.count } <= budget)
            // Two kept lists (the listener's and the household's) walked as one, without
            // building the merged list, choose what the scan of both together chose.
            let split = random.index(below: size + 1)
            let own = HeavyUnits(Array(units[..<split])), shared = HeavyUnits(Array(units[split...]))
            let merged = HeavyUnits.chosen(from: HeavyUnits.Merged(own.units, shared.units), budget: budget,
                                           groupLimit: groupLimit)
            #expect(Self.sorted(merged) == Self.sorted(expected), "round \(round), split at \(split)")
            // The household's list faded for a listener: every share times one factor, the
            // ones still heavy a head of it, as a scan of the faded units would choose.
            let fade = Double(1 + random.index(below: 8)) / 8
            let faded = shared.units.lazy.map { $0.scaled(by: fade) }.prefix(while: \.isHeavy)
            let fadedScan = Self.scanned(Array(units[..<split]) + units[split...].map { $0.scaled(by: fade) },
                                         budget: budget, groupLimit: groupLimit)
            let fadedWalk = HeavyUnits.chosen(from: HeavyUnits.Merged(own.units, faded), budget: budget, groupLimit: groupLimit)
            #expect(Self.sorted(fadedWalk) == Self.sorted(fadedScan), "round \(round), fade \(fade)")
            if walked.reduce(0, { $0 + $1.count }) == budget { cutInsideABand += 1 }
        }
        // The random sets reach the budget often, so the band where it runs out is exercised.
        #expect(cutInsideABand > 200)
    }

    @Test("moving a unit's share keeps the list sorted and equal to one built afresh; two lists walk as one sorted list")
    func movesKeepOrder() {
        var random = SplitMix64(seed: 3)
        var shares: [Int: Double] = [:]
        var heavy = HeavyUnits()
        for step in 0..<3_000 {
            let id = random.index(below: 300)
            let new = Double(random.index(below: 24)) / 8 - 1
            heavy.move(.album, id: id, count: 1 + id % 5, from: shares[id] ?? 0, to: new)
            shares[id] = new
            if step % 500 == 499 {
                let fresh = HeavyUnits(shares.map { HeavyUnits.Unit(share: $0.value, count: 1 + $0.key % 5, kind: .album, id: $0.key) })
                #expect(heavy == fresh, "step \(step)")
                #expect(!heavy.units.isEmpty && heavy.units.count < shares.count)
            }
        }
        // 16 bytes a unit, kind and id kept apart in one word.
        #expect(MemoryLayout<HeavyUnits.Unit>.stride == 16)
        let packed = HeavyUnits.Unit(share: 1, count: 70_000, kind: .genre, id: 1_000_000)
        #expect(packed.kind == .genre && packed.id == 1_000_000 && packed.count == 70_000)
        let other = HeavyUnits((0..<50).map { HeavyUnits.Unit(share: Double($0) / 10, count: 1, kind: .song, id: $0) })
        let merged = Array(HeavyUnits.Merged(heavy.units, other.units))
        #expect(merged == Self.sorted(heavy.units + other.units))
        #expect(Array(HeavyUnits.Merged([], other.units)) == other.units)
        #expect(Array(HeavyUnits.Merged(heavy.units, [HeavyUnits.Unit]())) == heavy.units)
    }
}
