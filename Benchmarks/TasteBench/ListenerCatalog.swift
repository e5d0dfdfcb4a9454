import SeededRandom

/// Builds each listener model for one library: which artists, genre or era it loves and
/// dislikes is drawn from the run's seed, among what the library has, so a seed always
/// gives the same listeners. The artists, changing, picky and household listeners share
/// their loved artists (one draw), so their tables can be read side by side.
package enum ListenerCatalog {
    /// Why a model does not fit a library (one genre, no sound classes, …).
    package struct NotApplicable: Error, Sendable, Equatable {
        /// In words, for the report.
        package let reason: String
    }

    /// Songs the household's housemate plays before the listener starts.
    package static let housemateSongs = 100
    /// The fickle listener's odds: a heart one song in five, a skip one in three.
    package static let fickleOdds = Listener.Odds(love: 0.2, skip: 0.3)

    /// The listener `kind` for `library`, for a run of `songs` songs (the changing listener
    /// changes halfway), drawn from `seed`.
    package static func make(_ kind: Listener.Kind, for library: TasteLibrary, songs: Int,
                             seed: UInt64) -> Result<Listener, NotApplicable> {
        switch kind {
        case .artists, .picky, .changing, .household:
            guard library.artists.count >= 6 else {
                return .failure(NotApplicable(reason: "needs at least 6 artists, the library has \(library.artists.count)"))
            }
            let draw = ArtistDraw(library, seed: seed)
            switch kind {
            case .artists:
                return .success(Listener(kind: kind, description: draw.describe(draw.taste, library), tastes: [draw.taste]))
            case .picky:
                let taste = Taste(loves: draw.taste.loves, otherwise: .skipped)
                return .success(Listener(kind: kind, description: describe(taste, library), tastes: [taste]))
            case .household:
                return .success(Listener(kind: kind, description: draw.describe(draw.taste, library)
                                            + "; a housemate of the same taste played \(housemateSongs) songs first",
                                         tastes: [draw.taste], housemateSongs: housemateSongs))
            default:
                guard !draw.spare.isEmpty else { return .failure(NotApplicable(reason: "too few artists for a second taste")) }
                let second = Taste(loves: Set(draw.spare.map(Trait.artist)),
                                   skips: draw.taste.skips.union(draw.taste.loves), trashes: draw.taste.trashes)
                let change = songs / 2
                return .success(Listener(kind: kind, description: "first \(draw.describe(draw.taste, library)); from song \(change + 1) "
                                            + describe(second, library) + " (the old loves skipped)",
                                         tastes: [draw.taste, second], changeAt: change))
            }
        case .genre:
            let genres = library.genres
            guard genres.count >= 3 else {
                return .failure(NotApplicable(reason: "needs at least 3 genres, the library has \(genres.count)"))
            }
            var random = SplitMix64(seed: seed &+ 0xB2)
            let order = genres.shuffled(using: &random)
            let taste = Taste(loves: [.genre(order[0])], skips: [.genre(order[1]), .genre(order[2])])
            return .success(Listener(kind: kind, description: describe(taste, library), tastes: [taste]))
        case .era:
            let eras = library.eras
            guard eras.count >= 3 else {
                return .failure(NotApplicable(reason: "needs at least 3 eras, the library has \(eras.count)"))
            }
            var random = SplitMix64(seed: seed &+ 0xC3)
            let order = eras.shuffled(using: &random)
            let taste = Taste(loves: [.era(order[0])], skips: [.era(order[1]), .era(order[2])])
            return .success(Listener(kind: kind, description: describe(taste, library), tastes: [taste]))
        case .sound:
            guard library.sounds.count == 2 else {
                return .failure(NotApplicable(reason: "the library's songs have no known kind of sound"))
            }
            let taste = Taste(loves: [.sound(.calm)], skips: [.sound(.bright)])
            return .success(Listener(kind: kind, description: describe(taste, library), tastes: [taste]))
        case .fickle:
            let odds = fickleOdds
            return .success(Listener(kind: kind, description: "random verdicts whatever the song: a heart "
                                        + percent(odds.love) + ", a skip " + percent(odds.skip) + ", else played through",
                                     tastes: [Taste()], odds: odds))
        }
    }

    /// The loved artists, skipped artists and trashed genre that the artist listeners share.
    private struct ArtistDraw {
        /// Loves a few artists, trashes a genre (when the library has 3 or more), skips a sixth of the artists.
        let taste: Taste
        /// As many artists again, neither loved nor disliked: the changing listener's second loves.
        let spare: [String]

        init(_ library: TasteLibrary, seed: UInt64) {
            var random = SplitMix64(seed: seed &+ 0xA1)
            let genres = library.genres
            let trashed = genres.count >= 3 ? random.pick(genres) : nil
            // Loved and skipped artists are drawn among those with no song in the trashed
            // genre, so every dislike is counted once (a shuffle's share of them is the
            // library's: a third of the songs for the listener).
            let eligible = library.artists.filter { artist in
                !library.songs.contains { $0.artist == artist && $0.genre != nil && $0.genre == trashed }
            }.shuffled(using: &random)
            let loved = max(1, min(3, library.artists.count / 6))
            let skipped = library.artists.count / 6
            taste = Taste(loves: Set(eligible.prefix(loved).map(Trait.artist)),
                          skips: Set(eligible.dropFirst(loved).prefix(skipped).map(Trait.artist)),
                          trashes: trashed.map { [.genre($0)] } ?? [])
            spare = Array(eligible.dropFirst(loved + skipped).prefix(loved))
        }

        func describe(_ taste: Taste, _ library: TasteLibrary) -> String { ListenerCatalog.describe(taste, library) }
    }

    /// "loves A, B (24 songs, 5.0 %); trashes genre X (80 songs); skips 10 artists (80 songs); the rest played through".
    static func describe(_ taste: Taste, _ library: TasteLibrary) -> String {
        func part(_ verb: String, _ traits: Set<Trait>) -> String? {
            guard !traits.isEmpty else { return nil }
            let count = library.songs.filter { library.traits(of: $0).contains(where: traits.contains) }.count
            let artists = traits.filter { if case .artist = $0 { true } else { false } }.count
            let named = artists > 3 ? "\(artists) artists" : traits.sorted().map { $0.words(eraWidth: library.eraWidth) }.joined(separator: ", ")
            return "\(verb) \(named) (\(count) songs, \(percent(Double(count) / Double(max(1, library.songs.count)))))"
        }
        var parts = [part("loves", taste.loves), part("trashes", taste.trashes), part("skips", taste.skips)].compactMap { $0 }
        switch taste.otherwise {
        case .neutral: parts.append("the rest played through")
        case .skipped: parts.append("skips the rest")
        case .loved: parts.append("loves the rest")
        case .trashed: parts.append("trashes the rest")
        }
        return parts.joined(separator: "; ")
    }

    /// `0.05` → `5.0 %`.
    static func percent(_ share: Double) -> String {
        let value = (share * 1000).rounded() / 10
        return "\(value) %"
    }
}
