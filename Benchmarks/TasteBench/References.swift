import SeededRandom

/// The floor and the ceiling every station run is printed beside: the same listener (with
/// the same random stream for its verdicts) on the same library for the same number of
/// songs, served by a shuffle and by an oracle instead of the station.
package enum References {
    /// Shuffle: the channel (every song of the library) in a random order, played through
    /// before any song comes again; songs trashed are left out of the next rounds, as any
    /// client leaves them out. `run` picks one of many orders; the verdicts come from the
    /// run's one stream whatever the order, so a fickle listener's verdicts are the
    /// station's, song for song, and only the order differs.
    package static func shuffle(_ library: TasteLibrary, _ listener: Listener, songs: Int, seed: UInt64,
                                run: Int = 0) -> [Heard] {
        var order = SplitMix64(seed: seed &+ UInt64(run) &* 0x9E37_79B9_7F4A_7C15)
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

    /// How many songs must pass before the oracle plays a song again: one window of the
    /// report, so no window holds a song twice (the station's own no-repeat window today).
    package static let oracleRepeatGap = TasteStats.windowSize

    /// Oracle: knows what the listener means to do with every song at every moment
    /// (``Listener/expected(_:in:at:)``) and plays the song it would like best: loved before
    /// played through before skipped, never one of the last ``oracleRepeatGap`` songs (while
    /// others remain), among equals the one heard longest ago (songs never heard first, at
    /// random). It is the ceiling under the rule that a song does not come twice in a
    /// window: with 24 loved songs it plays nothing else. A fickle listener's verdicts
    /// cannot be known, so its oracle is no better than a shuffle.
    package static func oracle(_ library: TasteLibrary, _ listener: Listener, songs: Int, seed: UInt64) -> [Heard] {
        var random = SplitMix64(seed: seed &+ 0x0AC1E)
        var verdicts = SplitMix64(seed: verdictSeed(seed))
        var lastHeard: [Int: Int] = [:]
        var trashed = Set<Int>()
        var heard: [Heard] = []
        while heard.count < songs {
            let index = heard.count
            let open = library.songs.indices.filter { !trashed.contains($0) }
            guard !open.isEmpty else { break }
            let rested = open.filter { lastHeard[$0].map { index - $0 >= oracleRepeatGap } ?? true }
            let candidates = (rested.isEmpty ? open : rested).map { position in
                (position, listener.expected(library.songs[position], in: library, at: index).rank,
                 lastHeard[position] ?? -1)
            }
            let best = candidates.map(\.1).min()!
            let top = candidates.filter { $0.1 == best }
            let oldest = top.map(\.2).min()!
            let position = random.pick(top.filter { $0.2 == oldest }.map(\.0))
            lastHeard[position] = index
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
