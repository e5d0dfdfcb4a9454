import Adapters
import Foundation
import Playback
@testable import Radio
import RadioAPI
import Testing
import TestSupport

/// A song's gain on its way from the radio's track to the player: the session hands each
/// song's own gain with its load and its queueing, and `[radio] loudness = false` (the
/// adapter's `appliesGain`) keeps every gain from mpv.
@Suite("Song gain", .serialized)
struct SongGainTests {
    func track(_ n: Int, gain: Double?) -> Track {
        var track = t(n)
        track.gain = gain
        return track
    }

    @Test("each song's gain goes with its load and its queueing, none for a song without one")
    func gainsReachThePlayer() async throws {
        let service = FakeService(lists: [[track(1, gain: -6.2), track(2, gain: 3.5), track(3, gain: nil)]])
        let player = FakePlayer()
        let session = RadioSession(service: service, player: player, store: nil)
        await session.start(channelID: "0")
        #expect(await eventually { player.loads == [t(1).url] && player.queues == [t(2).url] })
        #expect(player.loadGains == [-6.2])
        #expect(player.queueGains == [3.5])
        player.emit(.started(player.lastItem, duration: 30))
        let next = try #require(player.endNaturally())
        player.emit(.started(next, duration: 30))
        #expect(await eventually { player.queues == [t(2).url, t(3).url] })
        #expect(player.queueGains == [3.5, nil])
    }

    /// mpv's `af` while `url` plays, loaded through an adapter that applies gains or not.
    func filters(appliesGain: Bool, gain: Double?) async throws -> String? {
        let folder = try TemporaryDirectory(prefix: "mhz-song-gain")
        let song = folder.path("tone.flac")
        try await offPool { try MediaFactory.tone(at: song, seconds: 20) }
        let controller = try PlayerController(options: PlayerOptions(audioOutput: "null"))
        defer { controller.shutdown() }
        let player = MpvAudioPlayer(controller: controller, recoveryAttempts: 0, appliesGain: appliesGain)
        let id = try player.load(song.path, startAt: 0, gain: gain)
        var events = player.events.makeAsyncIterator()
        while let event = await events.next() {
            if case .started(id, _) = event { break }
        }
        return controller.audioFilters
    }

    @Test("the adapter gives mpv the song's gain as a filter of its own, and none when loudness is off")
    func loudnessSwitch() async throws {
        #expect(try await filters(appliesGain: true, gain: -6.2) == "lavfi=graph=%13%volume=-6.2dB", "mpv's writing of lavfi=[volume=-6.2dB]")
        #expect(try await filters(appliesGain: false, gain: -6.2) == "")
        #expect(try await filters(appliesGain: true, gain: nil) == "")
    }
}
