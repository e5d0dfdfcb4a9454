import Adapters
import TestSupport
import Testing
@testable import Radio
import RadioAPI
import Store

/// The session performs the machine's effects through the ports, in the right order and
/// without waiting for the network where it must not.
struct RadioSessionTests {
    @Test func aSkipLoadsTheNextSongBeforeTheStationAnswers() async throws {
        let service = FakeService(lists: [[t(1), t(2), t(3)], [t(8), t(9)]])
        let player = FakePlayer()
        let session = RadioSession(service: service, player: player, store: nil)
        await session.start(channelID: "0")
        #expect(await eventually { player.loads == [t(1).url] })
        player.emit(.started(player.lastItem, duration: 30))

        service.hold(.skip)
        await session.send(.skip)
        // The station has not answered the skip, yet the next song already plays: the
        // player had it queued and advanced to it, without a load.
        #expect(player.played == [t(1).url, t(2).url])
        #expect(player.loads == [t(1).url])
        #expect(player.commands == ["advance"])
        #expect(player.queuedURL == t(3).url, "the song after it is queued at once")
        #expect(await session.snapshot().track?.sid == "2")
        #expect(await eventually { service.reports.last?.type == .skip }, "the report goes out beside the skip")
        #expect(await session.snapshot().queueLength == 1, "only 3 is queued until the station answers")
        service.release(.skip)
        #expect(await eventually { await session.snapshot().queueLength == 2 }, "the answer replaced the queue with 8 and 9")
        #expect(await session.snapshot().track?.sid == "2", "the song already playing stays")
    }

    @Test func eventsOfAReplacedSongAreIgnored() async throws {
        let service = FakeService(lists: [[t(1), t(2), t(3)]])
        let player = FakePlayer()
        let session = RadioSession(service: service, player: player, store: nil)
        await session.start(channelID: "0")
        #expect(await eventually { player.loads.count == 1 })
        let first = player.lastItem
        player.emit(.started(first, duration: 30))
        await session.send(.skip)
        // The replaced song's end arrives late: it must not count as a natural end.
        player.emit(.finished(first, .stopped))
        player.emit(.finished(first, .eof))
        // Later events of the song playing now reach the session after those, in order; a
        // like after them goes through the report line behind any `e` they made.
        let second = player.lastItem
        player.emit(.started(second, duration: 30))
        player.emit(.progress(second, position: 2.5))
        #expect(await eventually { await session.snapshot().position == 2.5 })
        await session.send(.like)
        #expect(await eventually { service.reports.contains { $0.type == .rate } })
        #expect(service.reports.map(\.type).filter { $0 != .playing } == [.new, .skip, .rate])
        #expect(player.played.count == 2)
    }

    @Test func quitSavesThePositionAndTheChannel() async throws {
        let database = RadioDatabase(try MhzDatabase())
        let service = FakeService(lists: [[t(1), t(2), t(3)]])
        let player = FakePlayer()
        let session = RadioSession(service: service, player: player, store: database)
        await session.start(channelID: "0")
        #expect(await eventually { player.loads.count == 1 })
        player.emit(.started(player.lastItem, duration: 30))
        player.emit(.progress(player.lastItem, position: 3.5))
        #expect(await eventually { (try? database.setting(RadioSettingKey.lastChannel)) == "0" })
        try await waitUntil("the position 3.5 in the snapshot") { await session.snapshot().position == 3.5 }
        await session.send(.quit)
        try await within(.seconds(30), "the session quitting") { await session.waitUntilQuit() }
        let saved = try #require(try database.lastPosition())
        #expect(saved.sid == "1")
        #expect(saved.position == 3.5)
        #expect(player.commands.last == "stop")
    }

    @Test func startResumesTheRememberedChannel() async throws {
        let database = RadioDatabase(try MhzDatabase())
        try database.setSetting(RadioSettingKey.lastChannel, "1")
        let service = FakeService(channels: [ChannelInfo(id: "0", name: "P"), ChannelInfo(id: "1", name: "Ambient")],
                                  lists: [[t(1)]])
        let session = RadioSession(service: service, player: FakePlayer(), store: database)
        await session.start(channelID: nil)
        #expect(await eventually { service.reports.first?.channel == "1" })
        #expect(await session.snapshot().channel == ChannelInfo(id: "1", name: "Ambient"))
    }
}
