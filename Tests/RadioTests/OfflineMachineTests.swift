import Foundation
import Testing
@testable import Radio
import RadioAPI

/// Offline listening in the pure machine: the offline channel, the fallback to downloads
/// while the station is unreachable, and the way back.
struct OfflineMachineTests {
    /// A downloaded song: a file URL, and the channel it was downloaded from.
    func d(_ n: Int, from channel: String? = "7") -> Track {
        Track(sid: "\(n)", title: "Song \(n)", artist: "Artist \(n)", length: 30, url: "file:///music/\(n).mp3",
              channel: channel)
    }

    func downloadFetches(_ effects: [RadioEffect]) -> [Int] {
        effects.compactMap { if case .fetchDownloads(let id) = $0 { id } else { nil } }
    }

    let someDownloads = DownloadsOverview(items: [], playable: 3)

    @Test func theOfflineChannelTakesItsListsFromTheDownloadsAndReportsToTheSongsChannels() {
        var m = RadioMachine()
        _ = m.handle(.channelsLoaded([ChannelInfo(id: "0", name: "Personal")]))
        _ = m.handle(.downloadsChanged(someDownloads))
        #expect(m.channels.map(\.id) == ["0", "offline"], "the channel list offers it while songs are on disk")
        let start = m.handle(.start(channelID: "offline"))
        #expect(reports(start).isEmpty, "nothing is asked of the station")
        #expect(downloadFetches(start) == [1])
        #expect(events(start).contains(.source(.downloads)))
        #expect(m.snapshot.source == .downloads)
        #expect(plays(m.handle(.answered(requestID: 1, tracks: [d(1), d(2, from: nil), d(3)]))) == ["1"])
        _ = m.handle(.playerStarted(m.ticket, duration: 30))
        // A like goes to the station through the outbox, naming the channel it came from.
        let like = m.handle(.command(.like))
        #expect(reports(like).map { "\($0.type) \($0.sid ?? "-") \($0.channel)" } == ["r 1 7"])
        #expect(delivered(like) == ["r"])
        // Trash: `b` to the station, the song remembered, the next list from the downloads.
        let trash = m.handle(.command(.trash))
        #expect(reports(trash).map { "\($0.type) \($0.sid ?? "-") \($0.channel)" } == ["b 1 7"])
        #expect(trash.contains(.rememberTrashed(sid: "1")))
        let listID = reports(trash)[0].id
        #expect(downloadFetches(trash) == [listID])
        #expect(m.current?.sid == "2")
        // A song downloaded from a plain URL belongs to no station: its reports name the
        // offline channel, which the session keeps at home.
        _ = m.handle(.playerStarted(m.ticket, duration: 30))
        #expect(reports(m.handle(.command(.skip))).map(\.channel) == ["offline"])
        // A station's answer to the `b` (its own list) does not replace the downloads queued.
        _ = m.handle(.answered(requestID: listID, tracks: [d(4), d(5)]))
        _ = m.handle(.answered(requestID: 999, tracks: [t(8), t(9)]))
        #expect(!m.queue.contains { $0.sid == "8" })
    }

    @Test func anUnreachableStationWithNothingToPlayFallsBackToDownloadsAndReturnsWhenItAnswers() {
        var m = RadioMachine()
        _ = m.handle(.downloadsChanged(someDownloads))
        let start = m.handle(.start(channelID: "1"))
        #expect(fetched(start) == ["n"])
        let failed = m.handle(.failed(requestID: 1, .unreachable("connection refused")))
        #expect(events(failed).contains(.source(.fallback(channel: ChannelInfo(id: "1", name: "1")))))
        guard let listID = downloadFetches(failed).first else { Issue.record("no downloads fetch: \(failed)"); return }
        #expect(m.snapshot.source == .fallback(channel: ChannelInfo(id: "1", name: "1")))
        #expect(plays(m.handle(.answered(requestID: listID, tracks: [d(1), d(2)]))) == ["1"])
        // Each song's start asks the station whether it is back (`n` on the channel).
        let started = m.handle(.playerStarted(m.ticket, duration: 30))
        let probe = reports(started).first { $0.type == "n" }
        #expect(probe?.channel == "1")
        // Still down: downloads play on, nothing shown twice.
        let probeID = probe?.id ?? -1
        let stillDown = m.handle(.failed(requestID: probeID, .unreachable("refused")))
        #expect(stillDown.isEmpty)
        _ = m.handle(.playerFinished(m.ticket, .eof))
        let again = m.handle(.playerStarted(m.ticket, duration: 30))
        guard let second = reports(again).first(where: { $0.type == "n" }) else { Issue.record("no probe: \(again)"); return }
        // Back: its songs follow the downloaded song playing, which plays to its end.
        let back = m.handle(.answered(requestID: second.id, tracks: [t(5), t(6)]))
        #expect(events(back).contains(.source(.station)))
        #expect(m.snapshot.source == .station)
        #expect(m.current?.sid == "2")
        #expect(m.queue.map(\.sid) == ["5", "6"])
        #expect(queued(back) == ["5"])
    }

    @Test func withoutDownloadsAnUnreachableStationIsRetriedAsBefore() {
        var m = RadioMachine()
        _ = m.handle(.start(channelID: "1"))
        let failed = m.handle(.failed(requestID: 1, .unreachable("refused")))
        #expect(downloadFetches(failed).isEmpty)
        #expect(failed.contains { if case .scheduleRetry = $0 { true } else { false } })
        #expect(m.snapshot.source == .station)
    }

    @Test func aRefusalIsNotUnreachableAndDoesNotFallBack() {
        var m = RadioMachine()
        _ = m.handle(.downloadsChanged(someDownloads))
        _ = m.handle(.start(channelID: "-3"))
        let refused = m.handle(.failed(requestID: 1, .needsLogin(channel: "-3")))
        #expect(downloadFetches(refused).isEmpty)
        #expect(m.snapshot.source == .station)
    }

    @Test func anEmptyOfflineChannelSaysSoAndPlaysOnceASongIsDownloaded() {
        var m = RadioMachine()
        let start = m.handle(.start(channelID: "offline"))
        let answer = m.handle(.answered(requestID: downloadFetches(start)[0], tracks: []))
        #expect(events(answer).contains(.error(.emptyChannel(SongSource.offlineChannel))))
        let arrived = m.handle(.downloadsChanged(DownloadsOverview(items: [], playable: 1)))
        #expect(downloadFetches(arrived).count == 1, "asked again at once, not at the retry timer")
    }

    @Test func downloadSendsTheCurrentSongWithItsChannel() {
        var m = playingMachine()
        #expect(m.handle(.command(.download)) == [.download(t(1), channel: "0")])
        #expect(m.handle(.command(.downloadControl(.cancel, id: 4))) == [.controlDownload(.cancel, id: 4)])
        var idle = RadioMachine()
        #expect(events(idle.handle(.command(.download))) == [.error(.nothingPlaying)])
    }
}
