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
        #expect(oracle.prefix(24).allSatisfy { $0.verdict == .loved })
        #expect(oracle.allSatisfy { !$0.verdict.isDisliked })
        // A shuffle plays every song once before any comes again: a whole round is the library.
        let shuffle = References.shuffle(library, artists, songs: 480, seed: 3)
        #expect(Set(shuffle.map(\.truth)).count == 480)
        #expect(shuffle.filter { !$0.verdict.isDisliked }.count == 320)
        #expect(References.shuffle(library, artists, songs: 50, seed: 3) == Array(shuffle.prefix(50)))
    }
}
