import Synchronization

/// Chooses the songs of a new list: at random among those the listener has not just heard,
/// falling back to recently heard ones, oldest first, only when the channel is too small.
///
/// One generator serves the whole station. With a fixed seed, the same sequence of requests
/// yields the same lists, which is what makes the station's behaviour testable.
final class SongPicker: Sendable {
    private let random: Mutex<SplitMix64>

    /// Creates a picker; `seed` fixes its choices, `nil` draws a fresh seed.
    init(seed: UInt64?) {
        random = Mutex(seed.map { SplitMix64(seed: $0) } ?? SplitMix64())
    }

    /// Picks up to `count` distinct songs.
    ///
    /// - Parameters:
    ///   - candidates: the songs that may be played, without duplicates, in a stable order
    ///     (library order), so that a seed reproduces the same picks.
    ///   - recent: songs heard recently, oldest first (the request's `h` history, then the
    ///     current song). They are left out while enough other candidates remain, and
    ///     otherwise used to fill the list, least recently heard first.
    ///   - count: the list length wanted.
    /// - Returns: the chosen song ids; fewer than `count` only when the candidates run out.
    func pick(from candidates: [String], avoiding recent: [String], count: Int) -> [String] {
        guard count > 0, !candidates.isEmpty else { return [] }
        let recentSet = Set(recent)
        let fresh = candidates.filter { !recentSet.contains($0) }
        var chosen = random.withLock { generator in
            Array(fresh.shuffled(using: &generator).prefix(count))
        }
        if chosen.count < count {
            // The channel has too few unheard songs: repeat the ones heard longest ago.
            // A song heard twice counts from its latest hearing.
            var seen = Set<String>()
            let byLastHearing = recent.reversed().filter { seen.insert($0).inserted }.reversed()
            let allowed = Set(candidates)
            for sid in byLastHearing where allowed.contains(sid) && chosen.count < count {
                chosen.append(sid)
            }
        }
        return chosen
    }
}
