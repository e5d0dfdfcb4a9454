import Backoff
import Testing
@testable import Radio
import RadioAPI

/// The player always holds the queue's next song: natural ends hand over to it without a
/// gap, skips advance to it without a load, a changed queue replaces or takes it back, and
/// events about songs the machine no longer means change nothing.
struct RadioMachineQueueTests {
    let personal = ChannelInfo(id: "0", name: "Personal")

    @Test func aNaturalEndHandsOverToTheQueuedSongWithExactlyTheReportsExpected() {
        var m = RadioMachine()
        _ = m.handle(.channelsLoaded([personal]))
        _ = m.handle(.start(channelID: "0"))
        let answer = m.handle(.answered(requestID: 1, tracks: [t(1), t(2), t(3), t(4)]))
        #expect(answer == [.play(t(1), startAt: 0, ticket: PlayTicket(1)), .queueNext(t(2), startAt: 0, ticket: PlayTicket(2))])
        #expect(m.handle(.playerStarted(PlayTicket(1), duration: 30))
            == [.beginListen(id: 1, track: t(1), channel: "0"), .emit(.playing(t(1), channel: personal))])
        _ = m.handle(.playerProgress(PlayTicket(1), 29.8))

        let end = m.handle(.playerFinished(PlayTicket(1), .eof))
        #expect(end == [
            .deliver(requestID: 2, Report(type: .end, channel: "0", sid: "1", playedTime: 29.8)),
            .endListen(id: 1, listened: 29.8, outcome: .ended, liked: false),
            .emit(.ended(t(1))),
            .queueNext(t(3), startAt: 0, ticket: PlayTicket(3)),
        ], "no load: the player moves on to song 2 by itself, and song 3 is queued behind it")
        #expect(m.current == t(2))
        #expect(m.currentTicket == PlayTicket(2))
        #expect(m.queue.map(\.sid) == ["3", "4"])
        #expect(m.snapshot.position == 0)

        // Song 2's start is the next song's start; song 1's late events change nothing.
        #expect(m.handle(.playerProgress(PlayTicket(1), 30)).isEmpty)
        #expect(m.handle(.playerStarted(PlayTicket(2), duration: 31))
            == [.beginListen(id: 2, track: t(2), channel: "0"), .emit(.playing(t(2), channel: personal))])
        #expect(m.snapshot.effectiveDuration == 31)
    }

    @Test func skipAdvancesToTheQueuedSongWithoutALoad() {
        var m = playingMachine()
        let skip = m.handle(.command(.skip))
        #expect(skip == [
            .deliver(requestID: 2, Report(type: .skip, channel: "0", sid: "1", history: ReportHistory.parse("|1:s"), playedTime: 0)),
            .endListen(id: 1, listened: 0, outcome: .skipped, liked: false),
            .emit(.skipped(t(1))),
            .advancePlayer(t(2), startAt: 0, ticket: PlayTicket(2)),
            .queueNext(t(3), startAt: 0, ticket: PlayTicket(3)),
        ])
        #expect(m.current == t(2))
        // The skipped song's end is not a natural end.
        #expect(m.handle(.playerFinished(PlayTicket(1), .stopped)).isEmpty)
        #expect(m.handle(.playerFinished(PlayTicket(1), .eof)).isEmpty)
        #expect(m.handle(.playerStarted(PlayTicket(2), duration: 30))
            == [.beginListen(id: 2, track: t(2), channel: "0"), .emit(.playing(t(2), channel: personal))])
    }

    @Test func aFreshListReQueuesAndAChannelSwitchTakesTheQueuedSongBack() {
        var m = playingMachine()
        let skip = m.handle(.command(.skip))
        // The skip's answer replaces the queue: its first song replaces song 3 in the player.
        let answer = m.handle(.answered(requestID: reports(skip)[0].id, tracks: [t(7), t(8)]))
        #expect(answer == [.queueNext(t(7), startAt: 0, ticket: PlayTicket(4))])
        // An answer whose first song is the one already queued changes nothing in the player.
        let like = m.handle(.command(.like))
        #expect(queued(like).isEmpty)
        #expect(m.handle(.answered(requestID: reports(like)[0].id, tracks: [t(7), t(9)])).isEmpty)
        #expect(m.queue.map(\.sid) == ["7", "9"])

        let switched = m.handle(.command(.channel("1")))
        #expect(switched.first == .clearQueued, "\(switched)")
        #expect(m.current?.sid == "2", "the song plays on until the new channel answers")
        let fresh = m.handle(.answered(requestID: reports(switched)[0].id, tracks: [t(20), t(21)]))
        #expect(fresh == [.play(t(20), startAt: 0, ticket: PlayTicket(5)), .queueNext(t(21), startAt: 0, ticket: PlayTicket(6))])
    }

    @Test func eventsOfASongTheMachineDoesNotExpectAreIgnored() {
        var m = playingMachine()
        let before = m.snapshot
        let strangers: [RadioInput] = [
            .playerStarted(PlayTicket(2), duration: 12),  // queued, not handed over yet
            .playerStarted(PlayTicket(99), duration: 5),
            .playerProgress(PlayTicket(99), 12),
            .playerDuration(PlayTicket(99), 5),
            .playerRecovering(PlayTicket(99), attempt: 1, of: 4),
            .playerRecovered(PlayTicket(99)),
            .playerFinished(PlayTicket(99), .eof),
            .playerFinished(PlayTicket(99), .failed(.mediaUnavailable(status: 404))),
        ]
        for input in strangers { #expect(m.handle(input).isEmpty, "\(input)") }
        #expect(m.snapshot == before)
        #expect(m.history.encoded == "", "nothing was reported")
    }

    @Test func aQueuedSongTakenBackThatThePlayerBeganAnywayIsReplacedByTheSongMeant() {
        var m = playingMachine()  // 1 plays (ticket 1), 2 is queued (ticket 2)
        let like = m.handle(.command(.like))
        #expect(m.handle(.answered(requestID: reports(like)[0].id, tracks: [t(9)])) == [.queueNext(t(9), startAt: 0, ticket: PlayTicket(3))])
        // Song 1 ended just as 9 replaced 2: the player had already begun 2.
        _ = m.handle(.playerFinished(PlayTicket(1), .eof))
        #expect(m.current == t(9))
        #expect(m.handle(.playerStarted(PlayTicket(2), duration: 30)) == [.play(t(9), startAt: 0, ticket: PlayTicket(4))])
        #expect(m.handle(.playerStarted(PlayTicket(2), duration: 30)).isEmpty, "only once")
        #expect(events(m.handle(.playerStarted(PlayTicket(4), duration: 30))) == [.playing(t(9), channel: personal)])
    }

    @Test func aSongThePlayerCouldNotQueueIsLoadedWhenItsTurnComes() {
        var m = playingMachine()
        #expect(m.handle(.playerFinished(PlayTicket(2), .failed(.loadFailed("mpv refused")))).isEmpty)
        let end = m.handle(.playerFinished(PlayTicket(1), .eof))
        #expect(plays(end) == ["2"])
        #expect(queued(end) == ["3"])
    }

    @Test func unavailableMediaDropsTheSongAndTheQueueAndFetchesAFreshList() {
        var m = playingMachine(queued: [2, 3])
        let failed = m.handle(.playerFinished(PlayTicket(1), .failed(.mediaUnavailable(status: 403))))
        #expect(failed == [
            .endListen(id: 1, listened: 0, outcome: .ended, liked: false),
            .stopPlayer,
            .emit(.error(.player(.mediaUnavailable(status: 403)))),
            .fetch(requestID: 2, Report(type: .playing, channel: "0", sid: "1", history: [], playedTime: 0)),
        ])
        #expect(m.current == nil && m.queue.isEmpty && m.snapshot.loading)
        let answer = m.handle(.answered(requestID: 2, tracks: [t(7), t(8), t(9)]))
        #expect(answer == [.play(t(7), startAt: 0, ticket: PlayTicket(3)), .queueNext(t(8), startAt: 0, ticket: PlayTicket(4))])
        #expect(events(m.handle(.playerStarted(PlayTicket(3), duration: 30))) == [.playing(t(7), channel: personal)])
        #expect(m.snapshot.problem == nil)
    }

    @Test func unavailableMediaOverAndOverStopsWithASlowRetry() {
        var m = RadioMachine(configuration: .init(maxConsecutiveFailures: 2, retry: Backoff(initial: 1, multiplier: 30, cap: 30)))
        _ = m.handle(.start(channelID: "0"))
        _ = m.handle(.answered(requestID: 1, tracks: [t(1), t(2)]))
        let first = m.handle(.playerFinished(m.ticket, .failed(.mediaUnavailable(status: 404))))
        _ = m.handle(.answered(requestID: reports(first)[0].id, tracks: [t(5)]))
        let second = m.handle(.playerFinished(m.ticket, .failed(.mediaUnavailable(status: 404))))
        #expect(reports(second).isEmpty)
        #expect(second.last == .scheduleRetry(after: 30, token: m.retryToken))
        #expect(m.current == nil && m.queue.isEmpty)
    }

    @Test func aReconnectionIsShownUntilTheSongPlaysAgainOrIsLost() {
        var m = playingMachine()
        #expect(m.handle(.playerRecovering(PlayTicket(1), attempt: 1, of: 4))
            == [.emit(.reconnecting(t(1), attempt: 1, of: 4))])
        _ = m.handle(.playerRecovering(PlayTicket(1), attempt: 2, of: 4))
        #expect(m.snapshot.reconnecting == Reconnection(attempt: 2, maxAttempts: 4))
        #expect(m.handle(.playerRecovered(PlayTicket(1))) == [.emit(.reconnected(t(1)))])
        #expect(m.snapshot.reconnecting == nil)

        _ = m.handle(.playerRecovering(PlayTicket(1), attempt: 1, of: 4))
        let lost = m.handle(.playerFinished(PlayTicket(1), .failed(.connectionLost)))
        #expect(m.snapshot.reconnecting == nil)
        #expect(events(lost) == [.error(.player(.connectionLost))])
        #expect(Array(lost.prefix(2)) == [.endListen(id: 1, listened: 0, outcome: .ended, liked: false), .stopPlayer],
                "the song's history row closes, and the player must not move on to the queued song by itself")
    }
}
