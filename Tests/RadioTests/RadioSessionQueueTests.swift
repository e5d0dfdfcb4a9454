import Testing
@testable import Radio
import RadioAPI
import TestSupport

/// The session keeps the player's queue in step with the radio's: natural ends hand over
/// without a load, refused media leads to a fresh list, and reconnections reach the snapshot.
struct RadioSessionQueueTests {
    @Test func aNaturalEndHandsOverToTheQueuedSongWithoutALoad() async throws {
        let service = FakeService(lists: [[t(1), t(2), t(3)], [t(4)]])
        let player = FakePlayer()
        let session = RadioSession(service: service, player: player, store: nil)
        await session.start(channelID: "0")
        #expect(await eventually { player.loads == [t(1).url] && player.queuedURL == t(2).url })
        player.emit(.started(player.lastItem, duration: 30))
        player.emit(.progress(player.lastItem, position: 29.5))

        let next = try #require(player.endNaturally())
        player.emit(.started(next, duration: 30))
        #expect(await eventually { player.queuedURL == t(3).url }, "song 3 is queued behind song 2")
        // `e` goes through the outbox and `p` straight out: their order may vary.
        #expect(await eventually { service.reports.count == 3 }, "\(service.reports)")
        #expect(service.reports.first?.type == .new)
        #expect(service.reports.contains(Report(type: .end, channel: "0", sid: "1", playedTime: 29.5)))
        #expect(service.reports.contains { $0.type == .playing && $0.sid == "2" })
        #expect(await session.snapshot().track?.sid == "2")
        #expect(player.loads == [t(1).url], "no load: the player moved on by itself")
        #expect(player.commands.isEmpty)
    }

    @Test func aRefusedMediaURLDropsTheSongAndPlaysAFreshList() async throws {
        let service = FakeService(lists: [[t(1), t(2), t(3)], [t(7), t(8)]])
        let player = FakePlayer()
        let session = RadioSession(service: service, player: player, store: nil)
        await session.start(channelID: "0")
        #expect(await eventually { player.loads == [t(1).url] })
        player.emit(.started(player.lastItem, duration: 30))
        player.emit(.finished(player.lastItem, .failed(.mediaUnavailable(status: 403))))

        #expect(await eventually { player.loads == [t(1).url, t(7).url] && player.queuedURL == t(8).url },
                "\(player.loads)")
        #expect(player.commands == ["stop"], "song 2, queued in the player, must not play: the player stops")
        #expect(service.reports.map { "\($0.type.rawValue) \($0.sid ?? "-")" } == ["n -", "p 1"])
        let snapshot = await session.snapshot()
        #expect(snapshot.track?.sid == "7")
        #expect(snapshot.queueLength == 1, "songs 2 and 3 went with the refused one")
        #expect(snapshot.problem == .player(.mediaUnavailable(status: 403)))
    }

    @Test func aReconnectionReachesTheSnapshot() async throws {
        let service = FakeService(lists: [[t(1), t(2), t(3)]])
        let player = FakePlayer()
        let session = RadioSession(service: service, player: player, store: nil)
        await session.start(channelID: "0")
        #expect(await eventually { player.loads.count == 1 })
        player.emit(.started(player.lastItem, duration: 30))
        player.emit(.recovering(player.lastItem, attempt: 2, of: 4))
        let reconnecting = try await waitForValue("a reconnection in the snapshot") {
            await session.snapshot().reconnecting
        }
        #expect(reconnecting == Reconnection(attempt: 2, maxAttempts: 4))
        player.emit(.recovered(player.lastItem))
        try await waitUntil("the reconnection gone from the snapshot") { await session.snapshot().reconnecting == nil }
        #expect(await session.snapshot().track?.sid == "1")
    }

    @Test func aSkipWhenThePlayerHasNothingQueuedLoadsTheSongInstead() async throws {
        let service = FakeService(lists: [[t(1), t(2), t(3)]])
        let player = FakePlayer()
        service.hold(.skip)  // its (empty) answer would take song 3 back from the player
        defer { service.release(.skip) }
        let session = RadioSession(service: service, player: player, store: nil)
        await session.start(channelID: "0")
        #expect(await eventually { player.queuedURL == t(2).url })
        player.clearQueued()  // as if mpv had moved on by itself a moment before
        await session.send(.skip)
        #expect(player.commands == ["clearQueued", "advance"])
        #expect(player.loads == [t(1).url, t(2).url])
        #expect(await session.snapshot().track?.sid == "2")
    }

    @Test func aLoadThePlayerRefusesLeavesNothingPlayingBehindTheRadiosBack() async throws {
        let service = FakeService(lists: [[t(1), t(2), t(3)], [t(7)]])
        let player = FakePlayer()
        player.refuseLoads(of: t(1).url)
        service.hold(.playing)
        let session = RadioSession(service: service, player: player, store: nil)
        await session.start(channelID: "0")
        // Song 2 was queued right after the refused load (on an idle player, so it began):
        // the refusal, handled after that, stops it; the radio waits for the station.
        #expect(await eventually { service.reports.map(\.type) == [.new, .playing] }, "\(service.reports)")
        #expect(player.queues == [t(2).url])
        #expect(player.commands == ["stop"])
        #expect(!player.isPlaying, "nothing plays that the radio does not know of")
        #expect(await session.snapshot().track == nil)
        service.release(.playing)
        #expect(await eventually { player.loads == [t(2).url] && player.queuedURL == t(3).url }, "\(player.loads)")
    }
}
