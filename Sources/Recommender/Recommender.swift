import Foundation
import MusicLibrary
import SeededRandom

/// Chooses the songs of a new list for one listener: a weighted draw without replacement,
/// each song's weight `e^(decisiveness·score)` from what the listener taught the station
/// (see ``ListenerTaste``), spread over artists, with some exploration, never a trashed
/// song, and never one of the last ``noRepeatWindow`` songs heard while the channel has
/// others.
///
/// - **Exploration** (``explorationShare(variety:)`` of the picks) draws uniformly among
///   the songs the listener has not said no to (``ListenerTaste/isOpen(_:)``): never a
///   trashed song, nor one whose artist, album or genre had a song trashed or was skipped
///   more than enjoyed; among those, by an artist the listener never reported on while
///   there are any. It is how new loves are found; a song that was only skipped keeps a
///   weight above zero and can still come back through the weighted draw.
/// - **Spread**: a song's weight is divided by `(1 + n)^(spread·doubt)`, `n`
///   the songs of its artist among the window and the picks so far, so a liked artist
///   returns often but not back to back, and a listener whose verdicts do not follow what
///   the station learned (``ProfileTrust``) hears more artists than a shuffle would.
/// - **The variety dial** (0 only what you love … 1 adventurous, default 0.5) moves all
///   three: exploration 0 … 30 %, decisiveness 1.75 … 0.75, spread 0.25 … 1.
/// - **A large channel** (over ``DrawPool/exactLimit`` songs) is weighed as the listener's
///   heavy songs and a uniform sample of the rest, each sampled song standing for many
///   (``DrawPool``), so a list costs the same on 50 000 tracks as on a thousand.
///
/// Reproducible: each draw uses a random stream of its own, derived from the station's seed,
/// the listener and the number of the draw. So with a fixed seed the same requests give the
/// same lists, and one listener's activity changes what another is offered only through the
/// household's hearts (``HouseholdTaste``), which fade as that listener teaches the station.
package struct Recommender: Sendable {
    /// The station's seed.
    package let seed: UInt64

    /// A recommender whose draws derive from `seed`.
    package init(seed: UInt64) {
        self.seed = seed
    }

    /// The dial's value when a request names none.
    package static let defaultVariety = 0.5
    /// How many of the most recently heard songs a new list avoids.
    package static let noRepeatWindow = 20

    /// One chosen song.
    package struct Choice: Sendable, Equatable {
        /// Its track position.
        package var position: Int
        /// Whether exploration chose it rather than the weights.
        package var explored: Bool
    }

    /// The share of picks made by exploration at `variety`: 0 at 0, 15 % at 0.5, 30 % at 1.
    package static func explorationShare(variety: Double) -> Double { 0.3 * clampedVariety(variety) }
    /// How strongly scores count at `variety`: weights are `e^(decisiveness·score)`.
    package static func decisiveness(variety: Double) -> Double { 1.75 - clampedVariety(variety) }
    /// The exponent of the artist spread at `variety`.
    package static func spread(variety: Double) -> Double { 0.25 + 0.75 * clampedVariety(variety) }
    /// How much wider a list spreads for a listener the station reads with `confidence`
    /// (``ProfileTrust``): not at all from 0.6 up, 5.8 times at 0.2.
    package static func doubt(_ confidence: Double) -> Double { 1 + 12 * max(0, 0.6 - confidence) }

    /// `variety` within 0…1 (NaN: the default).
    package static func clampedVariety(_ variety: Double) -> Double {
        variety.isNaN ? defaultVariety : min(max(variety, 0), 1)
    }

    /// Picks up to `count` distinct songs.
    ///
    /// - Parameters:
    ///   - candidates: the songs that may be played (the channel's), as track positions in
    ///     library order, so a seed reproduces the same picks; the ones the listener
    ///     trashed are left out here (``DrawTaste/untrashed(_:)``). A channel larger than
    ///     ``DrawPool/exactLimit`` is weighed through a sample (``DrawPool``).
    ///   - trackCount: how many tracks the library has (positions are below it).
    ///   - window: the positions of the last ``noRepeatWindow`` songs heard, oldest first
    ///     (see ``window(remembered:history:current:position:)``). They are left out while
    ///     other candidates remain, and otherwise fill the list, least recently heard first.
    ///   - taste: the listener's scores over the library.
    ///   - variety: the dial, 0…1.
    ///   - count: the list length wanted.
    ///   - listener: the listener's key, part of the random stream's identity.
    ///   - draw: the number of this draw for this listener.
    /// - Returns: the choices; fewer than `count` only when the candidates run out.
    package func pick(from candidates: [Int], trackCount: Int, window: [Int], taste: some DrawTaste,
                      variety: Double = defaultVariety, count: Int, listener: String, draw: UInt64) -> [Choice] {
        choose(from: candidates, trackCount: trackCount, window: window, taste: taste, variety: variety,
               count: count, listener: listener, draw: draw)
    }

    /// ``pick(from:trackCount:window:taste:variety:count:listener:draw:)`` for the station's
    /// own taste: the same draw, compiled for ``ListenerTaste`` in this module, so a draw over
    /// tens of thousands of tracks makes no protocol call per track.
    package func pick(from candidates: [Int], trackCount: Int, window: [Int], taste: ListenerTaste,
                      variety: Double = defaultVariety, count: Int, listener: String, draw: UInt64) -> [Choice] {
        choose(from: candidates, trackCount: trackCount, window: window, taste: taste, variety: variety,
               count: count, listener: listener, draw: draw)
    }

    private func choose<Taste: DrawTaste>(from candidates: [Int], trackCount: Int, window: [Int], taste: Taste,
                                          variety: Double, count: Int, listener: String, draw: UInt64) -> [Choice] {
        guard count > 0, !candidates.isEmpty else { return [] }
        var random = SplitMix64(seed: TrackIdentity.hash(bytes: "\(seed)/\(listener)/\(draw)".utf8))
        let exploration = Self.explorationShare(variety: variety)
        let decisiveness = Self.decisiveness(variety: variety)
        let spread = Self.spread(variety: variety) * Self.doubt(taste.confidence)
        // A large channel is weighed through a sample, drawn from a stream of its own so a
        // channel weighed whole draws exactly as before.
        var sampling = SplitMix64(seed: TrackIdentity.hash(bytes: "\(seed)/\(listener)/\(draw)/pool".utf8))
        let pool = DrawPool.make(pool: candidates, trackCount: trackCount, taste: taste, decisiveness: decisiveness,
                                 random: &sampling)
        var fresh = pool.positions
        // How many songs each slot stands for; empty when every slot is one song.
        var scales = pool.scales
        if !window.isEmpty {
            var heard = [Bool](repeating: false, count: trackCount)
            for position in window { heard[position] = true }
            if scales.isEmpty {
                fresh.removeAll { heard[$0] }
            } else {
                let kept = fresh.indices.filter { !heard[fresh[$0]] }
                fresh = kept.map { fresh[$0] }
                scales = kept.map { scales[$0] }
            }
        }
        // Each candidate's artist, moved along with it as songs are taken.
        var artists = taste.artists(of: fresh)
        // Songs per artist among the window and the picks so far, by artist id (0, no
        // artist, never counted); ids past every candidate's count for nothing.
        var artistCounts = [Int32](repeating: 0, count: Int(artists.max() ?? 0) + 1)
        for position in window {
            let artist = Int(taste.artist(at: position))
            if artist != 0, artist < artistCounts.count { artistCounts[artist] += 1 }
        }
        // Every candidate's weight and its openness to exploration, 2 open and by a new
        // artist, 1 open, 0 closed.
        var (weights, open) = taste.weighing(of: fresh, decisiveness: decisiveness)
        for slot in weights.indices {
            let heard = artistCounts[Int(artists[slot])]
            if heard > 0 { weights[slot] *= Self.spreadFactor(Int(heard), spread) }
        }
        for slot in scales.indices { weights[slot] *= scales[slot] }
        // The sum is kept as songs are taken rather than summed again for every pick.
        var total = weights.reduce(0, +)
        var chosen: [Choice] = []
        while chosen.count < count, !fresh.isEmpty {
            if total <= 0 || !total.isFinite { total = weights.reduce(0, +) }
            var index: Int?
            var explored = false
            if random.unit() < exploration {
                let kinds = open
                // Uniformly among the open songs of new artists, else among the open ones.
                let level: UInt8 = kinds.contains(2) ? 2 : 1
                let eligible = kinds.count(where: { $0 >= level })
                if eligible > 0, !scales.isEmpty {
                    // A sampled song stands for many: uniform over the channel's songs.
                    index = Self.scaledIndex(kinds, level: level, scales: scales, &random)
                    explored = true
                } else if eligible > 0 {
                    var target = random.index(below: eligible)
                    index = kinds.firstIndex { kind in
                        guard kind >= level else { return false }
                        defer { target -= 1 }
                        return target == 0
                    }
                    explored = true
                }
            }
            let taken = index ?? Self.weightedIndex(weights, total: total, &random)
            total -= weights[taken]
            let position = fresh[taken]
            let artist = artists[taken]
            chosen.append(Choice(position: position, explored: explored))
            let last = fresh.count - 1
            fresh.swapAt(taken, last)
            weights.swapAt(taken, last)
            artists.swapAt(taken, last)
            open.swapAt(taken, last)
            if !scales.isEmpty { scales.swapAt(taken, last); scales.removeLast() }
            fresh.removeLast()
            weights.removeLast()
            artists.removeLast()
            open.removeLast()
            // The artist just picked counts once more against its other songs.
            if artist != 0, chosen.count < count {
                let before = Int(artistCounts[Int(artist)])
                artistCounts[Int(artist)] += 1
                let factor = Self.spreadFactor(before + 1, spread) / Self.spreadFactor(before, spread)
                for slot in artists.indices where artists[slot] == artist {
                    total -= weights[slot]
                    weights[slot] *= factor
                    total += weights[slot]
                }
            }
        }
        if chosen.count < count {
            // Too few unheard songs: repeat the ones heard longest ago.
            var allowed = [Bool](repeating: false, count: trackCount)
            for position in taste.untrashed(candidates) { allowed[position] = true }
            for position in window where allowed[position] && chosen.count < count {
                chosen.append(Choice(position: position, explored: false))
            }
        }
        return chosen
    }

    /// `(1 + heard)^-spread`: how much `heard` songs of the same artist lately weigh a song down.
    private static func spreadFactor(_ heard: Int, _ spread: Double) -> Double {
        heard == 0 ? 1 : pow(1 + Double(heard), -spread)
    }

    /// The positions of the last ``noRepeatWindow`` songs the listener heard, oldest first:
    /// of the songs the station remembers (`remembered`, oldest first), then the request's
    /// `h` history, then its current song, each counted once at its latest place. Songs no
    /// longer in the library take their place in the window but have no position.
    ///
    /// Walks from the newest back and stops once the window is full, so a request looks up
    /// about ``noRepeatWindow`` songs, not every remembered one.
    package static func window(remembered: [String], history: [String], current: String?,
                               position: (String) -> Int?) -> [Int] {
        var seen = Set<String>(minimumCapacity: noRepeatWindow)
        var newestFirst: [Int] = []
        newestFirst.reserveCapacity(noRepeatWindow)
        // Takes one song, newest first; false once the window is full.
        func take(_ sid: String) -> Bool {
            guard !sid.isEmpty, seen.insert(sid).inserted else { return true }
            if let position = position(sid) { newestFirst.append(position) }
            return seen.count < noRepeatWindow
        }
        walk: do {
            if let current, !take(current) { break walk }
            for sid in history.reversed() where !take(sid) { break walk }
            for sid in remembered.reversed() where !take(sid) { break walk }
        }
        return newestFirst.reversed()
    }

    /// An index among the slots of `kinds` at `level` or above, drawn with probability
    /// proportional to its scale.
    private static func scaledIndex(_ kinds: [UInt8], level: UInt8, scales: [Double], _ random: inout SplitMix64) -> Int {
        var total = 0.0
        for slot in kinds.indices where kinds[slot] >= level { total += scales[slot] }
        var target = random.unit() * total
        var last = 0
        for slot in kinds.indices where kinds[slot] >= level {
            target -= scales[slot]
            last = slot
            if target < 0 { return slot }
        }
        return last
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
}

/// What ``Recommender/pick(from:trackCount:window:taste:variety:count:listener:draw:)``
/// reads of a listener: ``ListenerTaste`` in the station, small tables in the tests.
package protocol DrawTaste {
    /// The weight of the track at `position`: `e^(decisiveness·score)`.
    func weight(at position: Int, decisiveness: Double) -> Double
    /// Whether exploration may offer it (the listener said no to nothing of it).
    func isOpen(_ position: Int) -> Bool
    /// Whether it is by an artist the listener never reported on: exploration looks there
    /// first.
    func isNew(_ position: Int) -> Bool
    /// How far the listener's verdicts follow its scores, 0…1 (``ProfileTrust``): below 1
    /// a list spreads over more artists.
    var confidence: Double { get }
    /// Its artist's id (0: none), for the spread.
    func artist(at position: Int) -> Int32
    /// For each of `positions`, in order: ``weight(at:decisiveness:)``, and 2 open
    /// (``isOpen(_:)``) and new (``isNew(_:)``), 1 open, 0 closed.
    func weighing(of positions: [Int], decisiveness: Double) -> (weights: [Double], openness: [UInt8])
    /// ``artist(at:)`` of each of `positions`, in order.
    func artists(of positions: [Int]) -> [Int32]
    /// `positions` without the songs the listener trashed, in order.
    func untrashed(_ positions: [Int]) -> [Int]
    /// The songs whose weight may stand well above a typical song's, for a draw over a
    /// large channel (``DrawPool``): the songs, and the groups of at most `groupLimit`
    /// songs, whose share makes them likelier at `decisiveness`, the most lifted first,
    /// up to about `budget` songs; any order, repeats allowed.
    func heavyPositions(decisiveness: Double, budget: Int, groupLimit: Int) -> [Int]
}

extension DrawTaste {
    /// One ``weight(at:decisiveness:)``, ``isOpen(_:)`` and ``isNew(_:)`` per position.
    package func weighing(of positions: [Int], decisiveness: Double) -> (weights: [Double], openness: [UInt8]) {
        (positions.map { weight(at: $0, decisiveness: decisiveness) },
         positions.map { isOpen($0) ? (isNew($0) ? 2 : 1) : 0 })
    }

    /// One ``artist(at:)`` per position.
    package func artists(of positions: [Int]) -> [Int32] {
        positions.map { artist(at: $0) }
    }

    /// Every position: a table that knows of no trashed song.
    package func untrashed(_ positions: [Int]) -> [Int] { positions }

    /// None: a table that knows of no song above the others weighs a large channel through
    /// its sample alone.
    package func heavyPositions(decisiveness: Double, budget: Int, groupLimit: Int) -> [Int] { [] }
}
