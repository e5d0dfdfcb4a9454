import Adapters
import Foundation
import Testing
@testable import Radio
import RadioAPI
import Store
import TestSupport

/// Where the listener was is never lost: a restart resumes the song at its position, and
/// long items resume whenever they are played again.
struct ResumeTests {
    /// Where the last session left `track`: at `position` on channel 0.
    static func left(_ track: Track, at position: Double, channel: String = "0") -> PlaybackPosition {
        PlaybackPosition(sid: track.sid, channel: channel, position: position, duration: track.length, url: track.url,
                         title: track.title, artist: track.artist, album: track.album)
    }

    @Test func resumingPlaysTheSongAtItsPositionAndTheListFillsTheQueueBehindIt() {
        var m = RadioMachine()
        _ = m.handle(.channelsLoaded([ChannelInfo(id: "0", name: "P")]))
        let effects = m.handle(.start(channelID: "0", lastPosition: Self.left(t(5), at: 12.5)))
        #expect(effects.contains(.play(t(5), startAt: 12.5, ticket: m.ticket)))
        #expect(reports(effects).map(\.type) == ["n"])
        let answer = m.handle(.answered(requestID: 1, tracks: [t(1), t(2)]))
        #expect(plays(answer).isEmpty, "the resumed song keeps playing")
        #expect(m.current?.sid == "5")
        #expect(m.queue.map(\.sid) == ["1", "2"])
    }

    @Test func aResumedSongWhoseURLNoLongerWorksGivesWayToAFreshList() {
        var m = RadioMachine()
        _ = m.handle(.channelsLoaded([ChannelInfo(id: "0", name: "P")]))
        _ = m.handle(.start(channelID: "0", lastPosition: Self.left(t(5), at: 12.5)))
        _ = m.handle(.playerFinished(m.ticket, .failed(.loadFailed("HTTP 403"))))
        let answer = m.handle(.answered(requestID: 1, tracks: [t(1), t(2)]))
        #expect(plays(answer) == ["1"])
        #expect(m.queue.map(\.sid) == ["2"])
    }

    @Test func startResumesTheLastSongOfTheSameChannel() async throws {
        let database = RadioDatabase(try MhzDatabase())
        try database.setSetting(RadioSettingKey.lastChannel, "0")
        try database.savePosition(PlaybackPosition(sid: "5", channel: "0", position: 12.5, duration: 30,
                                                   url: t(5).url, title: "Song 5", artist: "Artist 5", album: "Album 5"))
        let service = FakeService(lists: [[t(1), t(2)]])
        let player = FakePlayer()
        let session = RadioSession(service: service, player: player, store: database)
        await session.start(channelID: nil)
        #expect(await eventually { player.loads.count == 1 })
        #expect(player.loads == [t(5).url])
        #expect(player.starts == [12.5])
        #expect(await session.snapshot().track?.album == "Album 5")
    }

    @Test func aFinishedSongOrAnotherChannelStartsFresh() async throws {
        let database = RadioDatabase(try MhzDatabase())
        try database.savePosition(PlaybackPosition(sid: "5", channel: "0", position: 29, duration: 30, url: t(5).url))
        let player = FakePlayer()
        let session = RadioSession(service: FakeService(lists: [[t(1)]]), player: player, store: database)
        await session.start(channelID: "0")
        #expect(await eventually { player.loads == [t(1).url] })
        #expect(player.starts == [0])
    }

    @Test func longItemsResumeWheneverTheyArePlayedAgain() async throws {
        let database = RadioDatabase(try MhzDatabase())
        var mix = t(9)
        mix.length = 3600
        var done = t(8)
        done.length = 1200
        try database.savePosition(PlaybackPosition(sid: "9", channel: "1", position: 1500, duration: 3600, url: mix.url))
        try database.savePosition(PlaybackPosition(sid: "8", channel: "1", position: 1190, duration: 1200, url: done.url))
        try database.savePosition(PlaybackPosition(sid: "2", channel: "1", position: 20, duration: 30, url: t(2).url))
        let player = FakePlayer()
        let service = FakeService(lists: [[done, mix, t(2)]])
        // A skip's answer replaces the queue; held back, it cannot take song 2 out of the
        // player between the two skips, whenever the courier gets to it.
        service.hold(.skip)
        defer { service.release(.skip) }
        let session = RadioSession(service: service, player: player, store: database,
                                   configuration: .init(longItemSeconds: 600))
        await session.start(channelID: "0")
        #expect(await eventually { player.loads.count == 1 })
        // Each step waits for the one before it: the player's events reach the session on a
        // stream of their own, so a skip sent before `started` was taken finds nothing queued.
        #expect(await eventually { player.queuedURL == mix.url })
        player.emit(.started(player.lastItem, duration: 1200))
        await session.send(.skip)
        #expect(await eventually { player.played.count == 2 })
        player.emit(.started(player.lastItem, duration: 3600))
        #expect(await eventually { player.queuedURL == t(2).url })
        await session.send(.skip)
        #expect(await eventually { player.played.count == 3 })
        // The finished episode (loaded) and the short song start over; the mix, queued
        // behind the episode, resumes at 1500 s when the skip reaches it.
        #expect(player.played == [done.url, mix.url, t(2).url])
        #expect(player.starts == [0, 1500, 0])
        #expect(player.loads == [done.url], "both skips advanced to the queued song")
    }
}
