import Foundation
import MusicLibrary
import SeededRandom

/// Chooses the songs of a new list for one listener: a weighted draw without replacement,
/// each song's weight `e^score` from what the listener taught the station (see
/// ``ListenerProfile``), with some exploration, never a trashed song, and never one of the
/// last ``noRepeatWindow`` songs heard while the channel has others.
///
/// Reproducible: each draw uses a random stream of its own, derived from the station's seed,
/// the listener and the number of the draw. So with a fixed seed the same requests give the
/// same lists, and one listener's activity never changes what another is offered.
package struct Recommender: Sendable {
    /// The station's seed.
    package let seed: UInt64

    /// A recommender whose draws derive from `seed`.
    package init(seed: UInt64) {
        self.seed = seed
    }

    /// The share of picks made uniformly at random, ignoring the scores, so that songs the
    /// listener has turned away from still come up now and then and can win them back.
    package static let exploration = 0.15
    /// How many of the most recently heard songs a new list avoids.
    package static let noRepeatWindow = 20

    /// Picks up to `count` distinct songs.
    ///
    /// - Parameters:
    ///   - candidates: the songs that may be played (trashed ones already removed), as
    ///     track positions in library order, so a seed reproduces the same picks.
    ///   - trackCount: how many tracks the library has (positions are below it).
    ///   - window: the positions of the last ``noRepeatWindow`` songs heard, oldest first
    ///     (see ``window(recent:position:)``). They are left out while other candidates
    ///     remain, and otherwise fill the list, least recently heard first.
    ///   - weight: a candidate's weight, `e^score` (see ``ListenerWeights``).
    ///   - count: the list length wanted.
    ///   - listener: the listener's key, part of the random stream's identity.
    ///   - draw: the number of this draw for this listener.
    /// - Returns: the chosen positions; fewer than `count` only when the candidates run out.
    package func pick(from candidates: [Int], trackCount: Int, window: [Int], weight: (Int) -> Double,
              count: Int, listener: String, draw: UInt64) -> [Int] {
        guard count > 0, !candidates.isEmpty else { return [] }
        var random = SplitMix64(seed: TrackIdentity.hash(bytes: "\(seed)/\(listener)/\(draw)".utf8))
        var fresh = candidates
        if !window.isEmpty {
            var heard = [Bool](repeating: false, count: trackCount)
            for position in window { heard[position] = true }
            fresh.removeAll { heard[$0] }
        }
        var weights = fresh.map(weight)
        // The sum is kept as songs are taken rather than summed again for every pick: one
        // pass over the channel per list instead of one per song.
        var total = weights.reduce(0, +)
        var chosen: [Int] = []
        while chosen.count < count, !fresh.isEmpty {
            if total <= 0 { total = weights.reduce(0, +) }
            let index = random.unit() < Self.exploration
                ? random.index(below: fresh.count) : Self.weightedIndex(weights, total: total, &random)
            total -= weights[index]
            chosen.append(fresh[index])
            fresh.swapAt(index, fresh.count - 1)
            weights.swapAt(index, weights.count - 1)
            fresh.removeLast()
            weights.removeLast()
        }
        if chosen.count < count {
            // Too few unheard songs: repeat the ones heard longest ago.
            var allowed = [Bool](repeating: false, count: trackCount)
            for position in candidates { allowed[position] = true }
            for position in window where allowed[position] && chosen.count < count {
                chosen.append(position)
            }
        }
        return chosen
    }

    /// The positions of the last ``noRepeatWindow`` of `recent` (song ids, oldest first),
    /// in that order; songs no longer in the library take their place in the window but
    /// have no position.
    package static func window(recent: [String], position: (String) -> Int?) -> [Int] {
        recent.suffix(noRepeatWindow).compactMap(position)
    }

    /// An index drawn with probability proportional to its weight.
    private static func weightedIndex(_ weights: [Double], total: Double, _ random: inout SplitMix64) -> Int {
        var target = random.unit() * total
        for (index, weight) in weights.enumerated() {
            target -= weight
            if target < 0 { return index }
        }
        return weights.count - 1
    }

    /// The listener's recent songs as one list, oldest first, each once at its latest place:
    /// those the station remembers, then the request's `h` history, then its current song.
    package static func recentSongs(remembered: [String], history: [String], current: String?) -> [String] {
        var merged = remembered + history
        if let current, !current.isEmpty { merged.append(current) }
        var seen = Set<String>()
        return merged.reversed().filter { !$0.isEmpty && seen.insert($0).inserted }.reversed()
    }
}
