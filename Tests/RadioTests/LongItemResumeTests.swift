import Adapters
import Testing
@testable import Radio
import RadioAPI
import Store
import TestSupport

/// Long items (mixes, episodes, videos: longer than `longItemSeconds`) resume where they
/// were left whenever they are played again, until played past 95 %.
struct LongItemResumeTests {
    /// Where the player was told to start `track`, with `saved` in the database.
    func start(of track: Track, saved: PlaybackPosition, longItemSeconds: Double = 600) async throws -> Double? {
        let database = RadioDatabase(try MhzDatabase())
        try database.savePosition(saved)
        let player = FakePlayer()
        let session = RadioSession(service: FakeService(lists: [[track]]), player: player, store: database,
                                   configuration: .init(longItemSeconds: longItemSeconds))
        await session.start(channelID: "0")
        #expect(await eventually { player.loads.count == 1 })
        #expect(player.loads == [track.url])
        return player.starts.first
    }

    func item(_ n: Int, length: Double) -> Track {
        var track = t(n)
        track.length = length
        return track
    }

    @Test func aLongItemTheStationGaveNoLengthResumesByItsSavedDuration() async throws {
        let mix = item(9, length: 0)
        let saved = PlaybackPosition(sid: "9", channel: "1", position: 1500, duration: 3600, url: mix.url)
        #expect(try await start(of: mix, saved: saved) == 1500)
    }

    @Test func aShortItemWithoutALengthStartsOver() async throws {
        let song = item(3, length: 0)
        let saved = PlaybackPosition(sid: "3", channel: "1", position: 100, duration: 240, url: song.url)
        #expect(try await start(of: song, saved: saved) == 0)
    }

    @Test func theLengthComesFromTheStationWhenItGivesOne() async throws {
        // The station says 20 minutes; the saved duration (a stale 5 minutes) does not count.
        let episode = item(7, length: 1200)
        let saved = PlaybackPosition(sid: "7", channel: "1", position: 250, duration: 300, url: episode.url)
        #expect(try await start(of: episode, saved: saved) == 250)
    }

    @Test("95 % played counts as finished: the item starts over; just short of it, it resumes",
          arguments: [(1140.0, 0.0), (1139.0, 1139.0), (1199.0, 0.0)])
    func theNinetyFivePercentBoundary(position: Double, expected: Double) async throws {
        let episode = item(8, length: 1200)
        let saved = PlaybackPosition(sid: "8", channel: "1", position: position, duration: 1200, url: episode.url)
        #expect(saved.isFinished == (position >= 1140))
        #expect(try await start(of: episode, saved: saved) == expected)
    }

    @Test func anUnknownDurationIsNeverFinished() {
        #expect(!PlaybackPosition(sid: "1", channel: "1", position: 5000, duration: 0).isFinished)
        #expect(PlaybackPosition(sid: "1", channel: "1", position: 95, duration: 100).isFinished)
        #expect(!PlaybackPosition(sid: "1", channel: "1", position: 94.99, duration: 100).isFinished)
    }

    @Test func theThresholdIsTheConfiguredOne() async throws {
        // 5 minutes is long when long_item_minutes = 4.
        let song = item(4, length: 300)
        let saved = PlaybackPosition(sid: "4", channel: "1", position: 60, duration: 300, url: song.url)
        #expect(try await start(of: song, saved: saved, longItemSeconds: 240) == 60)
        #expect(try await start(of: song, saved: saved, longItemSeconds: 600) == 0)
    }
}
