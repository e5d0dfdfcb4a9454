import SeededRandom
import Testing
@testable import TasteBench

/// The listener models on the generated library, the window statistics and the references.
@Suite struct ListenerStatsTests {
    let library = TasteLibrary(name: "generated", folder: "/nowhere", songs: LibraryPlan.generated().map(\.truth))

    func listener(_ kind: Listener.Kind, songs: Int = 200) throws -> Listener {
        try ListenerCatalog.make(kind, for: library, songs: songs, seed: 25).get()
    }

    @Test func generatedLibraryIsTheIssues() {
        #expect(library.songs.count == 480 && library.artists.count == 60 && library.genres.count == 6)
        #expect(library.eraWidth == 10 && library.eras == [1960, 1970, 1980, 1990, 2000, 2010, 2020])
        #expect(Set(library.songs.map(\.title)).count == 480)
        let sound = LibraryPlan.sound()
        #expect(sound.count == 200 && sound.filter { $0.truth.sound == .calm }.count == 100)
        #expect(library.truth(title: "song 007", artist: "ARTIST 01")?.album == "Artist 01 Second (1963)")
    }

    @Test func artistsListenerIsTheIssues() throws {
        let artists = try listener(.artists)
        let taste = artists.tastes[0]
        #expect(taste.loves.count == 3 && taste.skips.count == 10 && taste.trashes.count == 1)
        // 24 loved songs (5 %), a third disliked: what the issue's shuffle gave (67 % and 5 %).
        let verdicts = library.songs.map { artists.expected($0, in: library, at: 0) }
        #expect(verdicts.filter { $0 == .loved }.count == 24)
        #expect(verdicts.filter { $0 == .trashed }.count == 80 && verdicts.filter { $0 == .skipped }.count == 80)
        #expect(artists.lovedBaseRate(in: library) == 0.05)
        // The same seed, the same listener; another seed, another.
        #expect(try listener(.artists).tastes == artists.tastes)
        #expect(try ListenerCatalog.make(.artists, for: library, songs: 200, seed: 26).get().tastes != artists.tastes)
        // A song without tags names no artist a listener could love.
        let untagged = TasteLibrary(name: "t", folder: "/", songs: library.songs + [SongTruth(title: "x", artist: "", album: "")])
        #expect(untagged.artists.count == 60 && untagged.traits(of: untagged.songs[480]).isEmpty)
        #expect(Trait.era(1960).words(eraWidth: 10) == "1960s" && Trait.era(2004).words(eraWidth: 1) == "2004")
    }

    @Test func changingListenerSkipsItsOldLovesAfterTheChange() throws {
        let changing = try listener(.changing, songs: 120)
        #expect(changing.changeAt == 60)
        let old = try #require(library.songs.first { changing.expected($0, in: library, at: 0) == .loved })
        #expect(changing.expected(old, in: library, at: 59) == .loved)
        #expect(changing.expected(old, in: library, at: 60) == .skipped)
        #expect(library.songs.filter { changing.expected($0, in: library, at: 60) == .loved }.count == 24)
        let oneGenre = TasteLibrary(name: "one", folder: "/", songs: library.songs.filter { $0.genre == "Rock" })
        guard case .failure(let reason) = ListenerCatalog.make(.genre, for: oneGenre, songs: 100, seed: 1) else {
            Issue.record("a genre listener on a library of one genre")
            return
        }
        #expect(reason.reason == "needs at least 3 genres, the library has 1")
    }

    @Test func fickleVerdictsFollowTheOddsWhateverTheSong() throws {
        let fickle = try listener(.fickle)
        var random = SplitMix64(seed: 7)
        let verdicts = (0..<10_000).map { fickle.verdict(library.songs[$0 % 480], in: library, at: $0, random: &random) }
        #expect(abs(Double(verdicts.filter { $0 == .loved }.count) / 10_000 - 0.2) < 0.02)
        #expect(abs(Double(verdicts.filter { $0 == .skipped }.count) / 10_000 - 0.3) < 0.02)
        #expect(!verdicts.contains(.trashed))
    }

    @Test func windowsAndSongsToPass() {
        let song = library.songs[0], other = library.songs[8]
        let heard = Array(repeating: Heard(song, .skipped), count: 10) + Array(repeating: Heard(other, .loved), count: 5)
            + Array(repeating: Heard(song, .neutral), count: 25)
        let windows = TasteStats.windows(heard)
        #expect(windows == [WindowStats(first: 1, last: 20, notDisliked: 0.5, loved: 0.25, artists: 2),
                            WindowStats(first: 21, last: 40, notDisliked: 1, loved: 0, artists: 1)])
        // Songs 9–28 hold the last 2 skips: the first 20 in a row with 18 not disliked end at 28.
        #expect(TasteStats.songsToPass(heard, share: 0.9) == 28)
        #expect(TasteStats.songsToPass(heard, share: 0.9, after: 15) == 35)
        #expect(TasteStats.songsToPass(Array(heard.prefix(27)), share: 0.9) == nil)
        #expect(TasteStats.median([30, nil, 20]) == 30 && TasteStats.median([nil, nil, 20]) == nil)
    }

    @Test func referencesAreFloorAndCeiling() throws {
        let artists = try listener(.artists)
        let oracle = References.oracle(library, artists, songs: 200, seed: 25)
        // 24 loved songs, none twice in 20: the oracle plays nothing else, each song first once.
        #expect(oracle.allSatisfy { $0.verdict == .loved })
        #expect(Set(oracle.prefix(24).map(\.truth)).count == 24)
        #expect(oracle.indices.allSatisfy { index in
            !oracle[max(0, index - 19)..<index].contains { $0.truth == oracle[index].truth }
        })
        // A genre listener's oracle has 80 loved songs: none comes again before all have played.
        let genre = try listener(.genre)
        let genreOracle = References.oracle(library, genre, songs: 200, seed: 25)
        #expect(Set(genreOracle.prefix(80).map(\.truth)).count == 80 && genreOracle.allSatisfy { $0.verdict == .loved })
        // A shuffle plays every song once before any comes again: a whole round is the library.
        let shuffle = References.shuffle(library, artists, songs: 480, seed: 3)
        #expect(Set(shuffle.map(\.truth)).count == 480)
        #expect(shuffle.filter { !$0.verdict.isDisliked }.count == 320)
        #expect(References.shuffle(library, artists, songs: 50, seed: 3) == Array(shuffle.prefix(50)))
        // Another shuffle of the same run: another order, the same fickle verdicts song for song.
        let fickle = try listener(.fickle)
        let first = References.shuffle(library, fickle, songs: 100, seed: 3)
        let second = References.shuffle(library, fickle, songs: 100, seed: 3, run: 1)
        #expect(first.map(\.truth) != second.map(\.truth) && first.map(\.verdict) == second.map(\.verdict))
    }

    @Test func targetsJudgeTheIssuesNumbers() throws {
        let artists = try listener(.artists, songs: 120)
        func songs(_ verdict: Verdict) -> [SongTruth] {
            library.songs.filter { artists.expected($0, in: library, at: 0) == verdict }
        }
        let loved = songs(.loved), neutral = songs(.neutral), skipped = songs(.skipped)[0]
        func run(_ station: [Heard], on library: TasteLibrary, as listener: Listener) -> TasteRun {
            TasteRun(library: library, listener: listener, variety: nil, station: station, shuffles: [],
                     oracle: References.oracle(library, listener, songs: 120, seed: 1), firstList: [],
                     songsAnswered: 0, songsWithReason: 0, reports: 0, seconds: 0)
        }
        // Songs 61–120: 6 skips (90 % not disliked) and 18 hearts (30 %, 6× the base rate of 5 %).
        var station = neutral.prefix(60).map { Heard($0, .neutral) } + loved.prefix(18).map { Heard($0, .loved) }
            + Array(repeating: Heard(skipped, .skipped), count: 6) + neutral[60..<96].map { Heard($0, .neutral) }
        #expect(TasteTargets.judge([run(station, on: library, as: artists)]).map(\.met) == [true, true])
        station[60] = Heard(skipped, .skipped)
        let lines = TasteTargets.judge([run(station, on: library, as: artists)])
        #expect(lines.map(\.markdown) == [
            "- **not met**: artists × generated: songs 61–120 at least 90 % not disliked: 88 %",
            "- **not met**: artists × generated: songs 61–120 loved at least 6× the base rate (5 %): 28 %, 5.7×",
        ])
        // Six artists, one loved (8 songs of 48): not even the oracle plays 6× 17 % loved.
        let small = TasteLibrary(name: "small", folder: "/", songs: Array(library.songs.prefix(48)))
        let few = try ListenerCatalog.make(.artists, for: small, songs: 120, seed: 25).get()
        let oracle = References.oracle(small, few, songs: 120, seed: 2)
        let judged = TasteTargets.judge([run(oracle, on: small, as: few)])
        #expect(judged.map(\.met) == [true, nil])
        #expect(judged[1].text.hasSuffix("; the oracle reaches only 40 %"))
    }
    @Test func severalSeedsAreJudgedOnTheirMean() throws {
        let artists = try listener(.artists, songs: 120)
        func songs(_ verdict: Verdict) -> [SongTruth] {
            library.songs.filter { artists.expected($0, in: library, at: 0) == verdict }
        }
        let loved = songs(.loved), neutral = songs(.neutral)
        // Songs 61–120 with `hearts` loved songs (base rate 5 %: 18 hearts are 6×), none disliked.
        func run(hearts: Int) -> TasteRun {
            let station = neutral.prefix(60).map { Heard($0, .neutral) } + loved.prefix(hearts).map { Heard($0, .loved) }
                + neutral[60..<(120 - hearts)].map { Heard($0, .neutral) }
            return TasteRun(library: library, listener: artists, variety: nil, station: station, shuffles: [],
                            oracle: References.oracle(library, artists, songs: 120, seed: 1), firstList: [],
                            songsAnswered: 0, songsWithReason: 0, reports: 0, seconds: 0)
        }
        // 8× and 4×: one seed meets it, the other does not; the mean, 6×, does.
        let met = TasteTargets.judgeMean([[run(hearts: 24)], [run(hearts: 12)]])
        #expect(met.map(\.markdown) == [
            "- met: artists × generated, mean of 2 seeds: songs 61–120 at least 90 % not disliked: 100 %, 100 % → 100 %",
            "- met: artists × generated, mean of 2 seeds: songs 61–120 loved at least 6× the base rate: 8.0×, 4.0× → 6.0×",
        ])
        let short = TasteTargets.judgeMean([[run(hearts: 24)], [run(hearts: 9)]])
        #expect(short.map(\.met) == [true, false] && short[1].text.hasSuffix("8.0×, 3.0× → 5.5×"))
        // One seed alone is judged by judge(_:), not here.
        #expect(TasteTargets.judgeMean([[run(hearts: 24)]]).isEmpty)
    }
}
