import SeededRandom

/// The floor and the ceiling every station run is printed beside: the same listener (with
/// the same random stream for its verdicts) on the same library for the same number of
/// songs, served by a shuffle and by an oracle instead of the station.
package enum References {
    /// Shuffle: the channel (every song of the library) in a random order, played through
    /// before any song comes again; songs trashed are left out of the next rounds, as any
    /// client leaves them out.
    package static func shuffle(_ library: TasteLibrary, _ listener: Listener, songs: Int, seed: UInt64) -> [Heard] {
        var order = SplitMix64(seed: seed)
        var verdicts = SplitMix64(seed: verdictSeed(seed))
        var deck: [Int] = []
        var trashed = Set<Int>()
        var heard: [Heard] = []
        while heard.count < songs {
            if deck.isEmpty {
                deck = library.songs.indices.filter { !trashed.contains($0) }.shuffled(using: &order)
                if deck.isEmpty { break }
            }
            let position = deck.removeLast()
            let song = library.songs[position]
            let verdict = listener.verdict(song, in: library, at: heard.count, random: &verdicts)
            if verdict == .trashed { trashed.insert(position) }
            heard.append(Heard(song, verdict))
        }
        return heard
    }

    /// Oracle: knows what the listener means to do with every song at every moment
    /// (``Listener/expected(_:in:at:)``) and picks, at random, among the songs it would
    /// love, else among those it would play through; no song comes again before every song
    /// the listener would not dislike has been played. A fickle listener's verdicts cannot be
    /// known, so its oracle is no better than a shuffle.
    package static func oracle(_ library: TasteLibrary, _ listener: Listener, songs: Int, seed: UInt64) -> [Heard] {
        var random = SplitMix64(seed: seed &+ 0x0AC1E)
        var verdicts = SplitMix64(seed: verdictSeed(seed))
        var played = Set<Int>()
        var trashed = Set<Int>()
        var heard: [Heard] = []
        while heard.count < songs {
            let index = heard.count
            func ranked(_ positions: [Int]) -> [(Int, Int)] {
                positions.map { ($0, listener.expected(library.songs[$0], in: library, at: index).rank) }
            }
            var candidates = ranked(library.songs.indices.filter { !played.contains($0) && !trashed.contains($0) })
            let best = candidates.map(\.1).min() ?? Int.max
            if best >= Verdict.skipped.rank {
                // Nothing left it would not dislike: start the round again if that brings some.
                let again = ranked(library.songs.indices.filter { !trashed.contains($0) })
                if again.contains(where: { $0.1 < Verdict.skipped.rank }) || candidates.isEmpty {
                    played.removeAll()
                    candidates = again
                }
            }
            guard let top = candidates.map(\.1).min() else { break }
            let position = random.pick(candidates.filter { $0.1 == top }.map(\.0))
            played.insert(position)
            let song = library.songs[position]
            let verdict = listener.verdict(song, in: library, at: index, random: &verdicts)
            if verdict == .trashed { trashed.insert(position) }
            heard.append(Heard(song, verdict))
        }
        return heard
    }

    /// The seed of a listener's verdict stream in a run of `seed` (the station's run uses it too).
    package static func verdictSeed(_ seed: UInt64) -> UInt64 { seed ^ 0x5EED_7A57E }
}
