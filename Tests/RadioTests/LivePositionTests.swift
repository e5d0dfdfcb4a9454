import Adapters
import TestSupport
import Testing
@testable import Radio
import RadioAPI
import Store

/// The position the radio answers `status` with and saves on quit and pause is the
/// player's exact one at that moment (mpv's `time-pos`), not the last `progress`, which
/// may be a quarter of a second old.
struct LivePositionTests {
    /// A session playing song 1, whose last progress said 2 s.
    func playing(store: RadioDatabase?) async throws -> (RadioSession, FakePlayer) {
        let player = FakePlayer()
        let session = RadioSession(service: FakeService(lists: [[t(1), t(2)]]), player: player, store: store)
        await session.start(channelID: "0")
        #expect(await eventually { player.loads.count == 1 })
        player.emit(.started(player.lastItem, duration: 30))
        player.emit(.progress(player.lastItem, position: 2))
        try await waitUntil("the position 2 in the snapshot") { await session.snapshot().position == 2 }
        return (session, player)
    }

    /// The first `status` event narrated.
    func firstStatus(_ session: RadioSession) async -> RadioSnapshot? {
        for await event in session.events { if case .status(let snapshot) = event { return snapshot } }
        return nil
    }

    @Test func statusAnswersWithThePlayersPositionNow() async throws {
        let (session, player) = try await playing(store: nil)
        player.livePosition = AudioPlayerPosition(item: player.lastItem, seconds: 2.23)
        await session.send(.status)
        #expect(await firstStatus(session)?.position == 2.23)
    }

    @Test func aPositionOfAnotherItemChangesNothing() async throws {
        let (session, player) = try await playing(store: nil)
        // A song replaced a moment ago: the player still names the old item.
        player.livePosition = AudioPlayerPosition(item: AudioPlayerItemID(999), seconds: 17)
        await session.send(.status)
        #expect(await firstStatus(session)?.position == 2)
    }

    @Test func withoutALivePositionStatusKeepsTheLastProgress() async throws {
        let (session, player) = try await playing(store: nil)
        player.livePosition = nil
        await session.send(.status)
        #expect(await firstStatus(session)?.position == 2)
    }

    @Test func quitSavesThePlayersPositionNow() async throws {
        let database = RadioDatabase(try MhzDatabase())
        let (session, player) = try await playing(store: database)
        player.livePosition = AudioPlayerPosition(item: player.lastItem, seconds: 2.24)
        await session.send(.quit)
        try await within(.seconds(30), "the session quitting") { await session.waitUntilQuit() }
        let saved = try #require(try database.lastPosition())
        #expect(saved.sid == "1")
        #expect(saved.position == 2.24)
    }

    @Test func pauseSavesWherePlaybackStopped() async throws {
        let database = RadioDatabase(try MhzDatabase())
        let (session, player) = try await playing(store: database)
        player.livePosition = AudioPlayerPosition(item: player.lastItem, seconds: 2.2)
        player.emit(.paused)
        #expect(await eventually { (try? database.lastPosition())?.position == 2.2 })
        #expect(await session.snapshot().paused)
    }
}
