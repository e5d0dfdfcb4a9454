import Testing
@testable import Radio
import RadioAPI
import TestSupport

/// A lost audio device (`PlayerFailure.unavailable`, from mpv's AO failure) is not the
/// song's fault: the radio stops and pauses with the error shown, reports nothing, and plays
/// the same song on from where it stopped when told to resume.
struct OutputFailureTests {
    static let words = "audio output initialization failed"

    @Test func theSongStaysPausedWhereItStoppedAndNothingIsReported() {
        var m = playingMachine()
        _ = m.handle(.playerProgress(m.ticket, 12))
        let effects = m.handle(.playerFinished(m.ticket, .failed(.unavailable(Self.words))))
        let record = PlaybackPosition(sid: "1", channel: "0", position: 12, duration: 30, url: t(1).url, title: "Song 1",
                                      artist: "Artist 1", album: "Album 1")
        #expect(effects.count == 4)
        #expect(effects.first == .emit(.error(.player(.unavailable(Self.words)))))
        if case .savePosition(var saved) = effects.dropFirst().first {
            saved.savedAt = record.savedAt
            #expect(saved == record)
        } else {
            Issue.record("no position saved: \(effects)")
        }
        #expect(Array(effects.suffix(2)) == [.stopPlayer, .pausePlayer])
        #expect(reports(effects).isEmpty, "the station has nothing to do with a device")
        #expect(m.current?.sid == "1")
        #expect(m.paused)
        #expect(m.snapshot.position == 12)
        #expect(m.problem == .player(.unavailable(Self.words)))
        #expect(m.queue.map(\.sid) == ["2", "3", "4"], "the queue is kept")
        #expect(m.consecutiveFailures == 0)
        // mpv's pause arrives: the position is saved where the song stopped.
        let paused = m.handle(.playerPaused)
        #expect(events(paused) == [.paused(t(1))])
        #expect(paused.contains { if case .savePosition(let p) = $0 { p.sid == "1" && p.position == 12 } else { false } })
        // Nothing is queued in the stopped player while it waits.
        #expect(m.handle(.outboxChanged(0)).isEmpty)
    }

    @Test(arguments: [RadioCommand.resume, .toggle])
    func resumeLoadsTheSongAgainWhereItStopped(command: RadioCommand) {
        var m = playingMachine()
        _ = m.handle(.playerProgress(m.ticket, 12))
        let old = m.ticket
        _ = m.handle(.playerFinished(m.ticket, .failed(.unavailable(Self.words))))
        _ = m.handle(.playerPaused)
        let effects = m.handle(.command(command))
        #expect(m.ticket != old)
        #expect(effects == [.play(t(1), startAt: 12, ticket: m.ticket), .resumePlayer,
                            .queueNext(t(2), startAt: 0, ticket: PlayTicket(m.ticket.rawValue + 1))], "\(effects)")
        _ = m.handle(.playerResumed)
        let started = m.handle(.playerStarted(m.ticket, duration: 30))
        #expect(events(started).first == .playing(t(1), channel: ChannelInfo(id: "0", name: "Personal")))
        #expect(m.problem == nil)
    }

    @Test func theSessionStopsThePlayerAndAsksTheStationNothing() async throws {
        let service = FakeService(lists: [[t(1), t(2), t(3)]])
        let player = FakePlayer()
        let session = RadioSession(service: service, player: player, store: nil)
        await session.start(channelID: "0")
        #expect(await eventually { player.loads == [t(1).url] && player.queuedURL == t(2).url })
        player.emit(.started(player.lastItem, duration: 30))
        player.emit(.finished(player.lastItem, .failed(.unavailable(Self.words))))
        #expect(await eventually { player.commands.suffix(2) == ["stop", "pause"] })
        #expect(player.loads == [t(1).url], "nothing else was loaded")
        #expect(await session.snapshot().track?.sid == "1")
        await session.send(.resume)
        #expect(player.loads == [t(1).url, t(1).url], "nothing else was loaded before the resume")
        #expect(player.commands.last == "resume")
        // A like after all that: reports go in the order they are made, so one the failure
        // made would reach the station before it.
        await session.send(.like)
        #expect(await eventually { service.reports.contains { $0.type == .rate } })
        #expect(service.reports.map(\.type) == [.new, .rate], "no p: the song is not broken")
    }
}
