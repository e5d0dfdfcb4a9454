import Foundation
import RadioAPI
@testable import Station
import Testing
import TestSupport
@testable import MusicLibrary
@testable import Recommender

/// The recommender's model, one rule at a time: exploration never goes where the listener
/// said no, the variety dial moves the lists, the sound of liked and disliked songs counts,
/// the household fills a new listener's first list, and every pick says why in words.
@Suite("Taste model")
struct TasteModelTests {
    /// 60 tracks: 6 artists of 10 songs (two albums of 5), artist `a` in genre `a % 3`.
    private static let library: Library = {
        let genres = ["Rock", "Jazz", "Folk"]
        var tracks: [LibraryTrack] = []
        for index in 0..<60 {
            let sid = String(300_000_000 + index), aid = String(4_000_000 + index / 5)
            let path = String(format: "%03d.mp3", index)
            let file = URL(fileURLWithPath: "/nowhere/" + path)
            let artist = "Artist " + String(index / 10), album = "Album " + String(index / 5)
            let genre: String = genres[(index / 10) % 3]
            tracks.append(LibraryTrack(sid: sid, ssid: "0000", aid: aid, relativePath: path, file: file,
                                       fileExtension: "mp3", title: "Song " + String(index), artist: artist,
                                       album: album, genre: genre, year: 2000, durationSeconds: 1, bitrate: 1))
        }
        return Library(tracks: tracks, root: URL(fileURLWithPath: "/nowhere"), isDemo: false, pins: [:])
    }()

    /// Two kinds of sound: even positions near 0, odd ones near 3, a little apart within a kind.
    private struct TwoSounds: SoundSpace {
        let trackCount = 60
        let analysedCount = 60
        func isAnalysed(_ position: Int) -> Bool { position < trackCount }
        func distance(_ first: Int, _ second: Int) -> Float? {
            func place(_ p: Int) -> Float { (p % 2 == 0 ? 0 : 3) + Float(p % 7) * 0.05 }
            return abs(place(first) - place(second))
        }
    }

    private func taste(_ profile: ListenerProfile, sound: (any SoundSpace)? = nil) -> ListenerTaste {
        let library = Self.library
        let affinity = sound.map { space in
            SoundAffinity(key: .init(generation: library.facets.generation, analysed: space.analysedCount, revision: 0),
                          space: space, liked: profile.liked.compactMap(library.position(of:)),
                          disliked: profile.recent.filter { (profile.songScores[$0] ?? 0) < 0 || profile.trashed.contains($0) }
                              .compactMap(library.position(of:)))
        }
        return ListenerTaste(profile: profile, weights: ListenerWeights(profile: profile, library: library),
                             library: library, sound: affinity, household: nil)
    }

    private func draws(_ taste: ListenerTaste, variety: Double, lists: Int) -> [[Recommender.Choice]] {
        let recommender = Recommender(seed: 9)
        let candidates = taste.weights.untrashed(Array(0..<60))
        return (0..<lists).map { draw in
            recommender.pick(from: candidates, trackCount: 60, window: [], taste: taste, variety: variety, count: 5,
                             listener: "unit", draw: UInt64(draw))
        }
    }

    @Test("a trash closes its artist, album and genre to exploration; a skip closes the song and its artist while they are below zero")
    func trashNeverExplored() {
        var profile = ListenerProfile()
        let tracks = Self.library.tracks
        _ = profile.apply(.ban, to: tracks[0])          // artist 0, genre Rock (artists 0 and 3)
        _ = profile.apply(.skip, to: tracks[11])        // artist 1
        for index in 40..<45 { _ = profile.apply(.end, to: tracks[index]) }
        let taste = taste(profile)
        var explored = 0
        for list in draws(taste, variety: 1, lists: 400) {
            for choice in list where choice.explored {
                explored += 1
                let artist = choice.position / 10
                #expect(artist != 0 && artist != 3, "explored \(choice.position), of the trashed genre")
                #expect(artist != 1, "explored \(choice.position), of the skipped artist")
            }
        }
        // Variety 1 explores 30 % of 2000 picks.
        #expect(explored > 450 && explored < 750, "\(explored) explored picks")
        #expect(!taste.isOpen(5) && !taste.isOpen(35) && !taste.isOpen(15) && taste.isOpen(25) && taste.isOpen(40))
    }

    @Test("a trashed song never comes back and a skipped artist stays drawable: its weight is above zero")
    func doorStaysOpen() {
        var profile = ListenerProfile()
        let tracks = Self.library.tracks
        for index in 10..<15 { _ = profile.apply(.skip, to: tracks[index]) }
        let taste = taste(profile)
        #expect(taste.weight(at: 10, decisiveness: 1) > 0)
        #expect(taste.weight(at: 10, decisiveness: 1) < taste.weight(at: 30, decisiveness: 1) / 20)
        // A like brings the artist's other songs back above an untaught one.
        _ = profile.apply(.rate, to: tracks[15])
        _ = profile.apply(.rate, to: tracks[16])
        let after = self.taste(profile)
        #expect(after.weight(at: 17, decisiveness: 1) > taste.weight(at: 17, decisiveness: 1) * 10)
    }

    @Test("variety 0 plays the loved artists more and fewer artists per list than variety 1")
    func varietyDial() {
        var profile = ListenerProfile()
        let tracks = Self.library.tracks
        for index in [0, 1, 2, 20, 21] { _ = profile.apply(.rate, to: tracks[index]) }
        for index in [40, 41, 50] { _ = profile.apply(.end, to: tracks[index]) }
        let taste = taste(profile)
        func measure(_ variety: Double) -> (loved: Double, artists: Double) {
            let lists = draws(taste, variety: variety, lists: 300)
            let picks = lists.flatMap { $0 }
            let loved = picks.filter { $0.position / 10 == 0 || $0.position / 10 == 2 }.count
            let artists = lists.map { Set($0.map { $0.position / 10 }).count }.reduce(0, +)
            return (Double(loved) / Double(picks.count), Double(artists) / Double(lists.count))
        }
        let low = measure(0), middle = measure(0.5), high = measure(1)
        #expect(low.loved > middle.loved && middle.loved > high.loved, "loved shares \(low.loved) \(middle.loved) \(high.loved)")
        #expect(low.artists < high.artists, "artists per list \(low.artists) \(high.artists)")
        #expect(low.loved > 0.6, "variety 0: \(low.loved) loved")
    }

    @Test("the sound of liked and skipped songs: songs that sound like the liked ones win, even with the same tags")
    func soundCounts() {
        var profile = ListenerProfile()
        let tracks = Self.library.tracks
        // Within artist 4: two even positions liked, two odd skipped.
        _ = profile.apply(.rate, to: tracks[40])
        _ = profile.apply(.end, to: tracks[40])
        _ = profile.apply(.rate, to: tracks[42])
        _ = profile.apply(.end, to: tracks[42])
        _ = profile.apply(.skip, to: tracks[41])
        _ = profile.apply(.skip, to: tracks[43])
        let heard = taste(profile, sound: TwoSounds())
        #expect(heard.soundPart(at: 44) == SoundAffinity.cap && heard.soundPart(at: 45) == -SoundAffinity.cap)
        #expect(!heard.isOpen(45) && heard.isOpen(44))
        let deaf = taste(profile)
        let even = { (taste: ListenerTaste) -> Double in
            let picks = self.draws(taste, variety: 0.5, lists: 200).flatMap { $0 }
            return Double(picks.filter { $0.position % 2 == 0 }.count) / Double(picks.count)
        }
        #expect(even(heard) > 0.85, "with sound: \(even(heard)) of the picks sound like the liked songs")
        #expect(even(deaf) < 0.7, "without: \(even(deaf))")
        // 48 sounds closest to 40 (the sound share, 2.5, is larger than the artist's hearts', 1.3).
        #expect(heard.reason(for: 48, explored: false) == .soundsLike(title: "Song 40"))
        #expect(heard.reason(for: 6, explored: false) == .soundsLike(title: "Song 40"))
    }

    @Test("trust: verdicts that follow the scores keep full confidence; verdicts whatever the song bring it to the floor")
    func trust() {
        var agreeing = ProfileTrust(), random = ProfileTrust()
        for index in 0..<40 {
            agreeing.learn(index % 2 == 0 ? .rate : .skip, predicted: index % 2 == 0 ? 2 : -2)
            agreeing.learn(.end, predicted: 1)
            // A heart one song in five, skips two in five, whatever the song scored.
            random.learn(index % 5 == 0 ? .rate : (index % 5 < 3 ? .skip : .end), predicted: 1.5)
        }
        #expect(agreeing.confidence == 1)
        #expect(random.confidence == ProfileTrust.floor)
        #expect(Recommender.doubt(1) == 1 && Recommender.doubt(ProfileTrust.floor) > 3)
        // With little confidence, a positive score counts for less; a negative one fully.
        var profile = ListenerProfile()
        _ = profile.apply(.rate, to: Self.library.tracks[0])
        _ = profile.apply(.skip, to: Self.library.tracks[20])
        let library = Self.library
        let weights = ListenerWeights(profile: profile, library: library)
        let sure = ListenerTaste(profile: profile, weights: weights, library: library, sound: nil, household: nil)
        let doubtful = ListenerTaste(profile: profile, weights: weights, library: library, sound: nil, household: nil,
                                     confidence: 0.2)
        #expect(doubtful.weight(at: 1, decisiveness: 1) < sure.weight(at: 1, decisiveness: 1) / 2)
        #expect(abs(doubtful.weight(at: 21, decisiveness: 1) - sure.weight(at: 21, decisiveness: 1)) < 1e-12)
    }

    @Test("each reason, in words")
    func reasons() {
        var profile = ListenerProfile()
        let tracks = Self.library.tracks
        _ = profile.apply(.rate, to: tracks[0])
        _ = profile.apply(.rate, to: tracks[1])
        _ = profile.apply(.rate, to: tracks[20])
        for index in 30..<33 { _ = profile.apply(.end, to: tracks[index]) }
        let taste = taste(profile)
        #expect(taste.reason(for: 0, explored: false) == .likedSong)
        #expect(taste.reason(for: 5, explored: false) == .likedArtist(artist: "Artist 0", songs: 2))
        #expect(taste.reason(for: 25, explored: false) == .likedArtist(artist: "Artist 2", songs: 1))
        #expect(taste.reason(for: 35, explored: false) == .playedArtist(artist: "Artist 3"))
        #expect(taste.reason(for: 55, explored: true) == .new)
        #expect(PickReason.likedSong.sentence == "you liked this song")
        #expect(PickReason.likedArtist(artist: "Nina Simone", songs: 2).sentence == "you liked two songs by Nina Simone")
        #expect(PickReason.likedArtist(artist: "X", songs: 1).sentence == "you liked a song by X")
        #expect(PickReason.likedArtist(artist: "X", songs: 12).sentence == "you liked 12 songs by X")
        #expect(PickReason.soundsLike(title: "Blue").sentence == "sounds like Blue, which you liked")
        #expect(PickReason.household.sentence == "liked by others here")
        #expect(PickReason.playedArtist(artist: "X").sentence == "you listened to X before")
        #expect(PickReason.new.sentence == "something new for you")
    }

    @Test("a new listener's first lists lean to what the household liked, and say so; the household fades as it teaches")
    func householdPrior() async throws {
        let client = "/j/app/radio/people?app_name=radio_android&version=100"
        try await StationFixtures.withGeneratedStation(seed: 12) { station, base in
            let alice = try await StationFixtures.signIn("alice", station: station, base: base)
            let liked = GeneratedLibrary.artistName(5)
            let ySongs = station.servedLibrary.tracks.filter { $0.artist == liked }
            #expect(ySongs.count == 15)
            for song in ySongs {
                #expect(try await HTTPFetch.get(base, client + alice + "&channel=0&type=r&sid=\(song.sid)").status == 200)
            }
            var firstLists: [[String: Any]] = []
            for name in ["bob", "carol", "dave", "erin"] {
                let listener = try await StationFixtures.signIn(name, station: station, base: base)
                let answer = try await HTTPFetch.get(base, client + listener + "&channel=0&type=n&sid=")
                firstLists += try #require(try answer.jsonObject()["song"] as? [[String: Any]])
            }
            #expect(firstLists.count == 20)
            let fromHousehold = firstLists.filter { $0["artist"] as? String == liked }
            // Untaught, 15 of 300 songs: one in twenty. With the household, most lists hold two or more.
            #expect(fromHousehold.count >= 7, "\(fromHousehold.count) of 20 first-list songs by the household's artist")
            #expect(fromHousehold.allSatisfy { $0["reason"] as? String == "liked by others here" })
            #expect(firstLists.allSatisfy { ($0["reason"] as? String)?.isEmpty == false })
        }
    }
}
