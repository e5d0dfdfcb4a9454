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

    @Test("after trashing all of X and liking Y: 200 lists hold no X and ≥ 2× the baseline share of Y; another listener is unaffected")
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
            // Bob's lists are exactly what they are on a station where Alice did nothing.
            #expect(bobDraws == baseline)
            #expect(bobDraws.contains(Self.artistX))
        }
    }

    @Test("skips lower a song and its artist; natural ends raise them; the rules are per listener")
    func skipsAndEnds() throws {
        let track = { (sid: String, artist: String, album: String) in
            LibraryTrack(sid: sid, ssid: "0000", aid: album, relativePath: sid, file: URL(fileURLWithPath: "/x"),
                         fileExtension: "mp3", title: sid, artist: artist, album: album, genre: "Rock", year: 2000,
                         durationSeconds: 1, bitrate: 1)
        }
        let a1 = track("1", "A", "10"), a2 = track("2", "A", "11"), b1 = track("3", "B", "12")
        var profile = ListenerProfile()
        _ = profile.apply(.skip, to: a1)
        #expect(profile.score(of: a1) < -0.9, "the song, and its artist")
        #expect(profile.score(of: a2) < -0.2 && profile.score(of: a2) > -0.3, "a little for the artist")
        #expect(profile.score(of: b1) == 0)
        _ = profile.apply(.end, to: b1)
        #expect(profile.score(of: b1) > 0 && profile.score(of: b1) < 0.5, "mild approval")
        let beforeLike = (profile.score(of: a2), profile.score(of: b1))
        let like = profile.apply(.rate, to: a2)
        #expect(like.liked && like.facets.map(\.facet) == [.artist, .album, .genre])
        #expect(profile.score(of: a2) > profile.score(of: b1))
        #expect(profile.score(of: b1) > beforeLike.1, "the liked song's genre rose")
        // Unliking takes the like's lessons back.
        _ = profile.apply(.unrate, to: a2)
        #expect(abs(profile.score(of: a2) - beforeLike.0) < 1e-9)
        #expect(abs(profile.score(of: b1) - beforeLike.1) < 1e-9)
        #expect(!profile.likes("2"))
        _ = profile.apply(.ban, to: b1)
        #expect(profile.trashed == ["3"])
        #expect(profile.recent == ["1", "3"], "skips, ends and trashes are listening; hearts are not")
    }

    @Test("exploration: an artist skipped ten times over (not trashed) still comes up now and then, far more often than its weight alone allows")
    func exploration() async throws {
        try await StationFixtures.withGeneratedStation(seed: 31) { station, base in
            let kim = try await StationFixtures.signIn("kim", station: station, base: base)
            let tracks = station.servedLibrary.tracks
            let xSongs = tracks.filter { $0.artist == Self.artistX }
            #expect(xSongs.count == 15)
            for _ in 0..<10 {
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
            // X's songs are at the floor of their song and artist caps: e^-3, a twentieth of
            // an untaught song's weight.
            let weight = exp(profile.score(of: xSongs[0]))
            #expect(abs(weight - exp(-ListenerProfile.Rules.songCap - ListenerProfile.Rules.artistCap)) < 0.005)
            #expect(xSongs.allSatisfy { !profile.trashed.contains($0.sid) })

            let lists = 1000
            let artists = try await draw(base, kim, lists: lists)
            let xCount = artists.filter { $0 == Self.artistX }.count
            // Weights alone would give X about 5000 × 15·e^-3 / 280 ≈ 14 places. Exploration
            // draws 15 % of the picks uniformly from the 280 songs not just heard, 15 of them
            // X's: about 40 more. 30 or more without exploration, or fewer with it, are both
            // below one chance in a thousand. X stays far under its untaught share (5 %, 250).
            #expect(xCount >= 30, "X came up \(xCount) times in \(lists * 5) songs")
            #expect(xCount < 125, "X came up \(xCount) times in \(lists * 5) songs")
        }
    }

    @Test("exploration picks songs the weights alone never would, at about its share")
    func explorationShare() {
        let recommender = Recommender(seed: 5)
        let candidates = Array(0..<100)
        var zeroWeightPicks = 0
        var picks = 0
        for draw in 0..<2000 {
            let chosen = recommender.pick(from: candidates, trackCount: 100, window: [], weight: { $0 < 10 ? 0 : 1 },
                                          count: 5, listener: "unit", draw: UInt64(draw))
            #expect(Set(chosen).count == 5)
            picks += chosen.count
            zeroWeightPicks += chosen.filter { $0 < 10 }.count
        }
        // A weighted pick never lands on a weight of 0; a uniform one does a tenth of the
        // time: 10 000 picks × 15 % × 10 % ≈ 150.
        let expected = Double(picks) * Recommender.exploration * 0.1
        #expect(Double(zeroWeightPicks) > expected * 0.6 && Double(zeroWeightPicks) < expected * 1.4,
                "\(zeroWeightPicks) picks of weight 0, about \(expected) expected")
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
                    let answer = try await HTTPFetch.get(base, Self.client + listener + "&channel=0&type=p&sid=\(current.isEmpty ? "0" : current)")
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
