import Foundation

/// Chooses the songs of a new list for one listener: a weighted draw without replacement,
/// each song's weight `e^score` from what the listener taught the station (see
/// ``ListenerProfile``), with some exploration, never a trashed song, and never one of the
/// last ``noRepeatWindow`` songs heard while the channel has others.
///
/// Reproducible: each draw uses a random stream of its own, derived from the station's seed,
/// the listener and the number of the draw. So with a fixed seed the same requests give the
/// same lists, and one listener's activity never changes what another is offered.
struct Recommender: Sendable {
    /// The station's seed.
    let seed: UInt64

    /// The share of picks made uniformly at random, ignoring the scores, so that songs the
    /// listener has turned away from still come up now and then and can win them back.
    static let exploration = 0.15
    /// How many of the most recently heard songs a new list avoids.
    static let noRepeatWindow = 20

    /// Picks up to `count` distinct songs.
    ///
    /// - Parameters:
    ///   - candidates: the songs that may be played (trashed ones already removed), as
    ///     indices into `tracks` in library order, so a seed reproduces the same picks.
    ///   - tracks: the library's tracks.
    ///   - profile: what the listener taught the station.
    ///   - recent: songs heard recently, oldest first. The last ``noRepeatWindow`` are left
    ///     out while other candidates remain, and otherwise fill the list, least recently
    ///     heard first.
    ///   - count: the list length wanted.
    ///   - listener: the listener's key, part of the random stream's identity.
    ///   - draw: the number of this draw for this listener.
    /// - Returns: the chosen song ids; fewer than `count` only when the candidates run out.
    func pick(from candidates: [Int], in tracks: [LibraryTrack], profile: ListenerProfile, recent: [String],
              count: Int, listener: String, draw: UInt64) -> [String] {
        guard count > 0, !candidates.isEmpty else { return [] }
        var random = SplitMix64(seed: TrackIdentity.hash(bytes: "\(seed)/\(listener)/\(draw)".utf8))
        let window = Array(recent.suffix(Self.noRepeatWindow))
        let windowSet = Set(window)
        var fresh = windowSet.isEmpty ? candidates : candidates.filter { !windowSet.contains(tracks[$0].sid) }
        var weights = fresh.map { exp(profile.score(of: tracks[$0])) }
        var chosen: [String] = []
        while chosen.count < count, !fresh.isEmpty {
            let index = random.unit() < Self.exploration
                ? random.index(below: fresh.count) : Self.weightedIndex(weights, &random)
            chosen.append(tracks[fresh[index]].sid)
            fresh.swapAt(index, fresh.count - 1)
            weights.swapAt(index, weights.count - 1)
            fresh.removeLast()
            weights.removeLast()
        }
        if chosen.count < count {
            // Too few unheard songs: repeat the ones heard longest ago.
            let allowed = Set(candidates.map { tracks[$0].sid })
            for sid in window where allowed.contains(sid) && chosen.count < count {
                chosen.append(sid)
            }
        }
        return chosen
    }

    /// An index drawn with probability proportional to its weight.
    private static func weightedIndex(_ weights: [Double], _ random: inout SplitMix64) -> Int {
        let total = weights.reduce(0, +)
        var target = random.unit() * total
        for (index, weight) in weights.enumerated() {
            target -= weight
            if target < 0 { return index }
        }
        return weights.count - 1
    }

    /// The listener's recent songs as one list, oldest first, each once at its latest place:
    /// those the station remembers, then the request's `h` history, then its current song.
    static func recentSongs(remembered: [String], history: [String], current: String?) -> [String] {
        var merged = remembered + history
        if let current, !current.isEmpty { merged.append(current) }
        var seen = Set<String>()
        return merged.reversed().filter { !$0.isEmpty && seen.insert($0).inserted }.reversed()
    }
}
