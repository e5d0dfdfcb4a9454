import Foundation
import RadioAPI
@testable import Station
import Testing
import TestSupport
@testable import MusicLibrary
@testable import Recommender
@testable import SeededRandom
import StationStorage

/// The per-listener weights the recommender draws with are exactly the profile's scores,
/// kept up to date report by report; what reports teach reaches the database by a clean
/// stop.
@Suite("Listener weights")
struct ListenerWeightsTests {
    /// 60 tracks: 6 artists (one untagged), 12 albums, 3 genres (one empty).
    private static let library: Library = {
        let tracks = (0..<60).map { index in
            LibraryTrack(sid: String(100_000_000 + index * 7), ssid: "0000", aid: String(2_000_000 + index / 5),
                         relativePath: String(format: "%03d.mp3", index), file: URL(fileURLWithPath: "/nowhere/\(index)"),
                         fileExtension: "mp3", title: "Song \(index)", artist: index / 10 == 5 ? "" : "Artist \(index / 10)",
                         album: "Album \(index / 5)", genre: ["Rock", "jazz", ""][index % 3], year: 1990 + index % 20,
                         durationSeconds: 1, bitrate: 1)
        }
        return Library(tracks: tracks, root: URL(fileURLWithPath: "/nowhere"), isDemo: false, pins: [:])
    }()

    @Test("after every report the updated weights are bit for bit e^score, and equal weights built afresh")
    func weightsFollowReports() {
        let library = Self.library
        var profile = ListenerProfile()
        var weights = ListenerWeights(profile: profile, library: library)
        var random = SplitMix64(seed: 11)
        let types: [ReportType] = [.rate, .unrate, .skip, .ban, .end, .end, .skip, .rate]
        for step in 0..<400 {
            let position = random.index(below: library.tracks.count)
            let type = types[random.index(below: types.count)]
            _ = profile.apply(type, to: library.tracks[position])
            weights.update(position: position, of: library, from: profile)
            if step % 40 == 39 {
                let fresh = ListenerWeights(profile: profile, library: library)
                #expect(weights.songsTaught == fresh.songsTaught && fresh.songsTaught
                            == Set(profile.songScores.keys).union(profile.liked).union(profile.trashed).count)
                // The heavy units kept report by report are those of the profile: each song's
                // own part and each artist's, album's and genre's part of 0.25 or more.
                #expect(weights.heavy == fresh.heavy)
                #expect(weights.heavy == HeavyUnits(Self.units(of: profile, library)), "step \(step)")
                for (index, track) in library.tracks.enumerated() {
                    let expected = exp(profile.score(of: track))
                    #expect(weights.weight(at: index, library.facets).bitPattern == expected.bitPattern, "step \(step), track \(index)")
                    #expect(fresh.weight(at: index, library.facets).bitPattern == expected.bitPattern, "step \(step), track \(index)")
                    #expect(weights.score(at: index, library.facets).bitPattern == profile.score(of: track).bitPattern)
                    #expect(weights.isTrashed(index) == profile.trashed.contains(track.sid))
                    #expect(weights.isLiked(index) == profile.likes(track.sid))
                    #expect(fresh.isTrashed(index) == weights.isTrashed(index) && fresh.isLiked(index) == weights.isLiked(index))
                    #expect(fresh.likedCount(artistOf: index, library.facets) == weights.likedCount(artistOf: index, library.facets))
                }
            }
        }
        let positions = library.tracks.indices
        #expect(positions.contains { weights.isTrashed($0) } && positions.contains { !weights.isTrashed($0) })
        #expect(positions.contains { weights.isLiked($0) } && positions.contains { !weights.isLiked($0) })
    }

    /// Every song's own part and every group's part of `profile` over `library`, as units.
    private static func units(of profile: ListenerProfile, _ library: Library) -> [HeavyUnits.Unit] {
        let facets = library.facets
        var units: [HeavyUnits.Unit] = []
        for (position, track) in library.tracks.enumerated() {
            units.append(HeavyUnits.Unit(share: profile.songPart(track.sid), count: 1, kind: .song, id: position))
        }
        for facet in TrackFacet.allCases {
            for (value, stored) in profile.affinities[facet] ?? [:] {
                guard let id = facets.id(of: value, facet) else { continue }
                units.append(HeavyUnits.Unit(share: ListenerProfile.facetPart(stored, facet),
                                             count: facets.count(of: id, facet), kind: HeavyUnits.Kind(facet), id: Int(id)))
            }
        }
        return units
    }

    @Test("interned facets: one id per artist, album and genre value, 0 for none")
    func facets() {
        let facets = Self.library.facets
        #expect(facets.idCount(.artist) == 6, "5 artists and none")
        #expect(facets.idCount(.album) == 13)
        #expect(facets.idCount(.genre) == 3, "rock, jazz and none")
        #expect(facets.artist[0] == facets.artist[9] && facets.artist[0] != facets.artist[10])
        #expect(facets.artist[55] == 0 && facets.genre[2] == 0 && facets.genre[0] != 0)
        #expect(Library(tracks: [], root: URL(fileURLWithPath: "/"), isDemo: false, pins: [:]).facets.generation
            != facets.generation)
    }

    @Test("the household's units of hearted songs and artists follow every heart given and taken back")
    func householdHearts() throws {
        let library = Self.library
        let data = try TemporaryDirectory(prefix: "mhz-household")
        let household = HouseholdTaste(ratings: try SongRatings(database: try StationDatabase(directory: data.url)))
        var random = SplitMix64(seed: 5)
        #expect(household.counts(for: library).units.units.isEmpty)
        // The units a scan of the counts gives: every hearted song, every hearted artist but id 0.
        func scanned(_ counts: HouseholdTaste.Counts) -> HeavyUnits {
            let songs = counts.songHearts.indices.filter { counts.songHearts[$0] > 0 }.map {
                HeavyUnits.Unit(share: HouseholdTaste.Counts.songShare(hearts: Int(counts.songHearts[$0])), count: 1,
                                kind: .song, id: $0)
            }
            let artists = counts.artistHearts.indices.dropFirst().filter { counts.artistHearts[$0] > 0 }.map {
                HeavyUnits.Unit(share: HouseholdTaste.Counts.artistShare(hearts: Int(counts.artistHearts[$0])),
                                count: library.facets.count(of: Int32($0), .artist), kind: .artist, id: $0)
            }
            return HeavyUnits(songs + artists)
        }
        for step in 0..<300 {
            let position = random.index(below: library.tracks.count)
            let counts = household.counts(for: library)
            // Never below zero, as hearts given and taken back by listeners are.
            let change: Int32 = counts.songHearts[position] > 0 && random.index(below: 2) == 0 ? -1 : 1
            household.moved(change, position: position, of: library)
            let now = household.counts(for: library)
            #expect(now.units == scanned(now), "step \(step)")
        }
        let counts = household.counts(for: library)
        let songs = counts.units.units.filter { $0.kind == .song }, artists = counts.units.units.filter { $0.kind == .artist }
        #expect(!songs.isEmpty && songs.count < library.tracks.count)
        // Several hearts on one artist lift it past one heart's share.
        #expect(artists.contains { $0.share > HouseholdTaste.perArtistLike })
        // The untagged artist (id 0) is never among them, though its songs carry hearts.
        #expect(!artists.contains { $0.id == 0 })
        #expect(counts.songHearts.indices.contains { library.facets.artist[$0] == 0 && counts.songHearts[$0] > 0 })
    }

    @Test("what reports taught is in the database after a clean stop: a new station loads the same profile")
    func persistedByStop() async throws {
        let data = try await StationFixtures.freshDataDirectory()
        let first = try await Station(configuration: StationConfiguration(
            library: nil, dataDirectory: data.url, seed: 4, rescanInterval: nil))
        let base = try await first.start()
        let credentials = try await StationFixtures.signIn("lee", station: first, base: base)
        let query = "/j/app/radio/people?app_name=radio_android&version=100" + credentials + "&channel=0"
        let tracks = first.servedLibrary.tracks
        let reports = [("r", 0), ("s", 1), ("e", 2), ("e", 2), ("b", 3), ("r", 4), ("u", 0), ("s", 5), ("p", 6), ("r", 7)]
        // Many reports in a row, answered before they are written.
        for round in 0..<3 {
            for (type, index) in reports {
                let sid = tracks[(index + round) % tracks.count].sid
                #expect(try await HTTPFetch.get(base, query + "&type=\(type)&sid=\(sid)").status == 200)
            }
        }
        let learned = try await first.profile(for: "user:1000001")
        #expect(!learned.liked.isEmpty && !learned.trashed.isEmpty && !learned.recent.isEmpty)
        await first.stop()

        let second = try await Station(configuration: StationConfiguration(
            library: nil, dataDirectory: data.url, seed: 4, rescanInterval: nil))
        #expect(try await second.profile(for: "user:1000001") == learned)
        await second.stop()
        withExtendedLifetime(data) {}
    }
}
