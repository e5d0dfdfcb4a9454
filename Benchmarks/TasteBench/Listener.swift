import SeededRandom

/// A simulated listener: a taste (or two, for one whose taste changes), or random verdicts
/// for the fickle one, and, for the household's listener, a housemate who taught the
/// station first. Built for one library by ``ListenerCatalog``.
package struct Listener: Sendable {
    /// The listener models of the benchmark, by their command-line names.
    package enum Kind: String, Sendable, CaseIterable {
        /// Loves a few artists, trashes a genre, skips a sixth of the artists.
        case artists
        /// Loves a few artists and skips everything else.
        case picky
        /// Loves a genre, skips two others.
        case genre
        /// Loves an era, skips two others.
        case era
        /// Loves a kind of sound (on a library whose tags say nothing), skips the other.
        case sound
        /// The artists listener whose loves change halfway: new artists loved, the old ones skipped.
        case changing
        /// Random verdicts with fixed odds, whatever the song.
        case fickle
        /// The artists listener, on a station where a housemate of the same taste listened first.
        case household
    }

    /// The odds of a fickle listener's verdicts (the rest are neutral).
    package struct Odds: Sendable, Equatable {
        /// The chance of a red heart.
        package var love: Double
        /// The chance of a skip.
        package var skip: Double
    }

    /// Which model.
    package let kind: Kind
    /// What it loves and dislikes, in words with the library's numbers.
    package let description: String
    /// Its taste, and after ``changeAt`` its second one.
    package let tastes: [Taste]
    /// The number (from 0) of the first song heard with the second taste.
    package let changeAt: Int?
    /// Random verdicts with these odds instead of a taste.
    package let odds: Odds?
    /// Songs a housemate of the same taste plays on the same station first, under an
    /// account of its own (0: nobody did).
    package let housemateSongs: Int

    /// A listener.
    package init(kind: Kind, description: String, tastes: [Taste], changeAt: Int? = nil, odds: Odds? = nil,
                 housemateSongs: Int = 0) {
        self.kind = kind
        self.description = description
        self.tastes = tastes
        self.changeAt = changeAt
        self.odds = odds
        self.housemateSongs = housemateSongs
    }

    /// The taste in force for the song numbered `index` (from 0).
    package func taste(at index: Int) -> Taste {
        if let changeAt, index >= changeAt, tastes.count > 1 { return tastes[1] }
        return tastes[0]
    }

    /// What the listener means to do with `song` at `index`: its taste's verdict. A fickle
    /// listener has no taste to know, so every song is neutral to it. The oracle picks by this.
    package func expected(_ song: SongTruth, in library: TasteLibrary, at index: Int) -> Verdict {
        odds == nil ? taste(at: index).verdict(for: library.traits(of: song)) : .neutral
    }

    /// What the listener does with `song` at `index`: its taste's verdict, or for a fickle
    /// listener a draw from `random` (one draw per song, whatever the verdict).
    package func verdict(_ song: SongTruth, in library: TasteLibrary, at index: Int,
                         random: inout SplitMix64) -> Verdict {
        guard let odds else { return expected(song, in: library, at: index) }
        let draw = random.unit()
        return draw < odds.love ? .loved : draw < odds.love + odds.skip ? .skipped : .neutral
    }

    /// The share of the library's songs the listener loves at `index`: what shuffle's loved
    /// share comes to on average, the base rate a station's loved share is measured against.
    package func lovedBaseRate(in library: TasteLibrary, at index: Int = 0) -> Double {
        if let odds { return odds.love }
        guard !library.songs.isEmpty else { return 0 }
        let loved = library.songs.filter { expected($0, in: library, at: index) == .loved }.count
        return Double(loved) / Double(library.songs.count)
    }
}
