import Foundation
import RadioAPI
@testable import Station
import Testing
import TestSupport
@testable import MusicLibrary
@testable import Recommender

/// The recommender learns per listener from reports, and only for that listener.
@Suite("Learning")
struct LearningTests {
    private static let client = "/j/app/radio/people?app_name=radio_android&version=100"
    private static let artistX = GeneratedLibrary.artistName(3)
    private static let artistY = GeneratedLibrary.artistName(7)

    /// Artists of the songs in `draws` lists on channel 0 for one listener.
    private func draw(_ base: URL, _ credentials: String, lists: Int) async throws -> [String] {
        var artists: [String] = []
        for _ in 0..<lists {
            let answer = try await HTTPFetch.get(base, Self.client + credentials + "&channel=0&type=n&sid=")
            let songs = try #require(try answer.jsonObject()["song"] as? [[String: Any]])
            #expect(songs.count == 5)
            artists += songs.compactMap { $0["artist"] as? String }
        }
        return artists
    }

    @Test("after trashing all of X and liking Y: 200 lists hold no X and ≥ 2× the baseline share of Y; another listener hears Y's hearts, not X's trashes")
    func trashAndLike() async throws {
        let draws = 200

        // Baseline: a fresh station with the same seed, where Bob has taught nothing and
        // Alice does nothing.
        var baseline: [String] = []
        try await StationFixtures.withGeneratedStation(seed: 2024) { station, base in
            _ = try await StationFixtures.signIn("alice", station: station, base: base)
            let bob = try await StationFixtures.signIn("bob", station: station, base: base)
            baseline = try await draw(base, bob, lists: draws)
        }

        try await StationFixtures.withGeneratedStation(seed: 2024) { station, base in
            let alice = try await StationFixtures.signIn("alice", station: station, base: base)
            let bob = try await StationFixtures.signIn("bob", station: station, base: base)
            let tracks = station.servedLibrary.tracks
            let xSongs = tracks.filter { $0.artist == Self.artistX }
            let ySongs = tracks.filter { $0.artist == Self.artistY }
            #expect(xSongs.count == 15 && ySongs.count == 15)
            for song in xSongs {
                let answer = try await HTTPFetch.get(base, Self.client + alice + "&channel=0&type=b&sid=\(song.sid)")
                #expect(try answer.jsonObject()["r"] as? Int == 0)
            }
            // Alice likes one album of Y's (5 of Y's 15 songs).
            for song in ySongs.prefix(5) {
                let answer = try await HTTPFetch.get(base, Self.client + alice + "&channel=0&type=r&sid=\(song.sid)")
                #expect((try answer.jsonObject()["r"] as? NSNumber)?.intValue == 0)
            }

            let aliceDraws = try await draw(base, alice, lists: draws)
            let bobDraws = try await draw(base, bob, lists: draws)
            #expect(aliceDraws.count == draws * 5)
            #expect(!aliceDraws.contains(Self.artistX), "a trashed artist came back")
            let share = { (artists: [String]) in Double(artists.filter { $0 == Self.artistY }.count) / Double(artists.count) }
            let baseShare = share(baseline)
            #expect(baseShare > 0.02 && baseShare < 0.09, "Y is 15 of 300 songs: about 5 % (\(baseShare))")
            #expect(share(aliceDraws) >= 2 * baseShare, "Y: \(share(aliceDraws)) vs baseline \(baseShare)")
            // Bob taught nothing: what the household liked leans his lists to Y, but Alice's
            // trashes are hers (X still comes up for him).
            #expect(bobDraws != baseline)
            #expect(share(bobDraws) > baseShare)
            #expect(bobDraws.contains(Self.artistX))
        }
    }

    @Test("skips lower a song, its artist and a little its album and genre; natural ends raise them; a like is taken back by unliking")
    func skipsAndEnds() throws {
        let track = { (sid: String, artist: String, album: String, genre: String) in
            LibraryTrack(sid: sid, ssid: "0000", aid: album, relativePath: sid, file: URL(fileURLWithPath: "/x"),
                         fileExtension: "mp3", title: sid, artist: artist, album: album, genre: genre, year: 2000,
                         durationSeconds: 1, bitrate: 1)
        }
        let a1 = track("1", "A", "10", "Rock"), a2 = track("2", "A", "11", "Rock"), b1 = track("3", "B", "12", "Jazz")
        var profile = ListenerProfile()
        let skip = profile.apply(.skip, to: a1)
        #expect(skip.recent == ["1"], "a skip is written with the recent list it moved")
        // The song (2·tanh(-1.5/2)), its artist (3·tanh(-1.2/3)), album (tanh(-0.4)) and genre (2·tanh(-0.2/2)).
        #expect(abs(profile.score(of: a1) - (2 * tanh(-0.75) + 3 * tanh(-0.4) + tanh(-0.4) + 2 * tanh(-0.1))) < 1e-12)
        #expect(abs(profile.score(of: a2) - (3 * tanh(-0.4) + 2 * tanh(-0.1))) < 1e-12, "the artist and genre, not the album")
        #expect(profile.score(of: b1) == 0)
        _ = profile.apply(.end, to: b1)
        #expect(profile.score(of: b1) > 0 && profile.score(of: b1) < 0.8, "mild approval")
        let beforeLike = (profile.score(of: a2), profile.score(of: b1))
        let like = profile.apply(.rate, to: a2)
        #expect(like.liked && like.facets.map(\.facet) == [.artist, .album, .genre])
        #expect(like.facets.map(\.score) == [-1.2 + 1.6, 0.6, -0.2 + 0.3], "the scores as they are now")
        #expect(like.recent == nil, "a heart moved the recent list")
        #expect(profile.score(of: a2) > profile.score(of: b1))
        // Unliking takes the like's lessons back.
        _ = profile.apply(.unrate, to: a2)
        #expect(abs(profile.score(of: a2) - beforeLike.0) < 1e-9)
        #expect(abs(profile.score(of: b1) - beforeLike.1) < 1e-9)
        #expect(!profile.likes("2"))
        _ = profile.apply(.ban, to: b1)
        #expect(profile.trashed == ["3"])
        #expect(profile.recent == ["1", "3"], "skips, ends and trashes are listening; hearts are not")
    }

    @Test("stored scores stay within their limits, so a change of taste is heard within a few reports")
    func storedLimits() {
        let track = { (sid: String) in
            LibraryTrack(sid: sid, ssid: "0000", aid: "7", relativePath: sid, file: URL(fileURLWithPath: "/x"),
                         fileExtension: "mp3", title: sid, artist: "A", album: "A1", genre: "Rock", year: 2000,
                         durationSeconds: 1, bitrate: 1)
        }
        var profile = ListenerProfile()
        for index in 0..<20 {
            _ = profile.apply(.rate, to: track("\(index)"))
            _ = profile.apply(.end, to: track("\(index)"))
        }
        #expect(profile.affinities[.artist]?["a"] == ListenerProfile.Rules.artistStoredLimit)
        #expect(profile.affinities[.genre]?["rock"] == ListenerProfile.Rules.storedLimit)
        // Three skips with the heart taken back turn twenty liked songs' artist below zero.
        for index in 0..<3 {
            _ = profile.apply(.unrate, to: track("\(index)"))
            _ = profile.apply(.skip, to: track("\(index)"))
        }
        // 5 − 3 × (1.6 + 1.2): the artist now counts against its songs.
        let artist: Double = profile.affinities[.artist]?["a"] ?? 0
        let expected: Double = 5 - 3 * 2.8
        #expect(abs(artist - expected) < 1e-9)
        #expect(ListenerProfile.facetPart(artist, .artist) < -2)
    }

    @Test("an artist skipped over and over is not explored but the door stays open: its weight stays above zero and hearts raise it")
    func skippedArtistComesBack() async throws {
        try await StationFixtures.withGeneratedStation(seed: 31) { station, base in
            let kim = try await StationFixtures.signIn("kim", station: station, base: base)
            let tracks = station.servedLibrary.tracks
            let xSongs = tracks.filter { $0.artist == Self.artistX }
            #expect(xSongs.count == 15)
            for _ in 0..<2 {
                for song in xSongs {
                    #expect(try await HTTPFetch.get(base, Self.client + kim + "&channel=0&type=s&sid=\(song.sid)").status == 200)
                }
            }
            // Twenty other songs heard to their end push X's songs out of the no-repeat window.
            for song in tracks.filter({ $0.artist != Self.artistX }).prefix(Recommender.noRepeatWindow) {
                #expect(try await HTTPFetch.get(base, Self.client + kim + "&channel=0&type=e&sid=\(song.sid)").text == #"{"r":0}"#)
            }
            let userID = try #require(kim.split(separator: "&").first { $0.hasPrefix("user_id=") }?.dropFirst(8))
            let profile = try await station.profile(for: "user:\(userID)")
            #expect(xSongs.allSatisfy { !profile.trashed.contains($0.sid) && exp(profile.score(of: $0)) > 0 })
            let skipped = try await draw(base, kim, lists: 200).filter { $0 == Self.artistX }.count
            // At most a few places in 1000 (its weight is under 1/100 of an untaught song's).
            #expect(skipped < 10, "X came up \(skipped) times in 1000 songs")
            // A heart on two of X's songs makes each likelier than before (from the floor of
            // the clamp, −6: the heart and the artist's lesson lift it by about 0.7).
            let before = profile
            for song in xSongs.prefix(2) {
                #expect(try await HTTPFetch.get(base, Self.client + kim + "&channel=0&type=r&sid=\(song.sid)").status == 200)
            }
            let after = try await station.profile(for: "user:\(userID)")
            for song in xSongs.prefix(2) {
                #expect(after.score(of: song) - before.score(of: song) > 0.5)
            }
        }
    }

    /// A taste of fixed weights: positions below `zeroes` weigh nothing, the rest 1.
    private struct FlatTaste: DrawTaste {
        let zeroes: Int
        let confidence = 1.0
        func weight(at position: Int, decisiveness: Double) -> Double { position < zeroes ? 0 : 1 }
        func isOpen(_ position: Int) -> Bool { true }
        func isNew(_ position: Int) -> Bool { false }
        func artist(at position: Int) -> Int32 { 0 }
    }

    @Test("exploration picks open songs the weights alone never would, at about its share")
    func explorationShare() {
        let recommender = Recommender(seed: 5)
        let candidates = Array(0..<100)
        var zeroWeightPicks = 0, explored = 0
        var picks = 0
        for draw in 0..<2000 {
            let chosen = recommender.pick(from: candidates, trackCount: 100, window: [], taste: FlatTaste(zeroes: 10),
                                          count: 5, listener: "unit", draw: UInt64(draw))
            #expect(Set(chosen.map(\.position)).count == 5)
            picks += chosen.count
            zeroWeightPicks += chosen.filter { $0.position < 10 }.count
            explored += chosen.filter(\.explored).count
            #expect(chosen.allSatisfy { $0.explored || $0.position >= 10 })
        }
        // A weighted pick never lands on a weight of 0; an explored one does a tenth of the
        // time: 10 000 picks × 15 % × 10 % ≈ 150.
        let expected = Double(picks) * Recommender.explorationShare(variety: 0.5) * 0.1
        #expect(Double(zeroWeightPicks) > expected * 0.6 && Double(zeroWeightPicks) < expected * 1.4,
                "\(zeroWeightPicks) picks of weight 0, about \(expected) expected")
        #expect(abs(Double(explored) - Double(picks) * 0.15) < Double(picks) * 0.03, "\(explored) explored")
    }

    @Test("no repeat within the last 20 songs heard while the channel has others; seeded lists repeat exactly")
    func noRepeatAndSeed() async throws {
        var first: [[String]] = []
        for run in 0..<2 {
            try await StationFixtures.withGeneratedStation(seed: 77) { station, base in
                let listener = try await StationFixtures.signIn("kim", station: station, base: base)
                var heard: [String] = []
                var lists: [[String]] = []
                var current = ""
                for _ in 0..<30 {
                    let type = current.isEmpty ? "n" : "e"
                    if type == "e" {
                        #expect(try await HTTPFetch.get(base, Self.client + listener + "&channel=0&type=e&sid=\(current)").text == #"{"r":0}"#)
                    }
                    // The first list is a new one; then the song played is reported `p` (a report
                    // about a song not in the library is refused).
                    let report = current.isEmpty ? "&channel=0&type=n&sid=" : "&channel=0&type=p&sid=\(current)"
                    let answer = try await HTTPFetch.get(base, Self.client + listener + report)
                    let sids = try #require(try answer.jsonObject()["song"] as? [[String: Any]]).compactMap { $0["sid"] as? String }
                    lists.append(sids)
                    for sid in sids where heard.suffix(Recommender.noRepeatWindow - 1).contains(sid) {
                        Issue.record("\(sid) repeated within the last \(Recommender.noRepeatWindow)")
                    }
                    // The client plays the first song of each list to its end.
                    current = sids[0]
                    heard.append(current)
                }
                if run == 0 { first = lists } else { #expect(lists == first, "same seed, same requests, same lists") }
            }
        }
    }
}
