@testable import Recommender
@testable import SeededRandom
import Testing

/// The no-repeat window (``Recommender/window(remembered:history:current:position:)``) walks
/// from the newest song back and stops once full: what it gives must be what merging every
/// recent song and taking the last ``Recommender/noRepeatWindow`` gives.
@Suite("No-repeat window")
struct RecommenderWindowTests {
    /// The window as first written: every remembered song, then `h`, then the current one,
    /// each once at its latest place, the last 20 of them, those in the library as positions.
    private static func merged(remembered: [String], history: [String], current: String?,
                               position: (String) -> Int?) -> [Int] {
        var all = remembered + history
        if let current, !current.isEmpty { all.append(current) }
        var seen = Set<String>()
        let recent: [String] = all.reversed().filter { !$0.isEmpty && seen.insert($0).inserted }.reversed()
        return recent.suffix(Recommender.noRepeatWindow).compactMap(position)
    }

    @Test("the walk from the newest song gives the merged list's last 20, over 3 000 random requests")
    func walkMatchesMerge() {
        var random = SplitMix64(seed: 11)
        // Ids 0…59; those from 50 up are no longer in the library; "" is a missing id.
        func sid() -> String { random.index(below: 25) == 0 ? "" : "s\(random.index(below: 60))" }
        let position: (String) -> Int? = { sid in
            guard let number = Int(sid.dropFirst()), number < 50 else { return nil }
            return number * 3
        }
        var full = 0
        for round in 0..<3_000 {
            let remembered = (0..<random.index(below: 51)).map { _ in sid() }
            let history = (0..<random.index(below: 12)).map { _ in sid() }
            let current: String? = random.index(below: 4) == 0 ? nil : sid()
            let walked = Recommender.window(remembered: remembered, history: history, current: current, position: position)
            let expected = Self.merged(remembered: remembered, history: history, current: current, position: position)
            #expect(walked == expected, "round \(round)")
            let distinct = Set((remembered + history + [current ?? ""]).filter { !$0.isEmpty })
            if distinct.count > Recommender.noRepeatWindow { full += 1 }
        }
        // Most requests name more songs than the window holds, so the walk's early stop is
        // what is compared.
        #expect(full > 1_000)
        #expect(Recommender.window(remembered: ["s1", "s2", "s1"], history: ["s3", ""], current: "s2", position: position)
            == [3, 9, 6], "oldest first, each once at its latest place")
    }
}
