import Backoff
import Foundation
import Testing
@testable import Radio
import RadioAPI

/// Every report rule (docs/PROTOCOL.md §2), driven through the pure state machine.
struct RadioMachineTests {
    @Test func startSendsNewAndPlaysTheFirstSongOfTheAnswer() {
        var m = RadioMachine()
        _ = m.handle(.channelsLoaded([ChannelInfo(id: "0", name: "Personal")]))
        let start = m.handle(.start(channelID: "0"))
        #expect(events(start) == [.channel(ChannelInfo(id: "0", name: "Personal"))])
        #expect(start.contains(.saveChannel("0")))
        #expect(reports(start).map { "\($0.type) \($0.sid ?? "-") \($0.h ?? "-")" } == ["n - "])
        #expect(m.snapshot.loading)

        let answer = m.handle(.answered(requestID: 1, tracks: [t(1), t(2), t(3)]))
        #expect(plays(answer) == ["1"])
        #expect(m.queue.map(\.sid) == ["2", "3"])
        #expect(!m.snapshot.loading)
        let started = m.handle(.playerStarted(m.ticket, duration: 29.5))
        #expect(events(started) == [.playing(t(1), channel: ChannelInfo(id: "0", name: "Personal"))])
        #expect(reports(started).isEmpty, "two songs queued: no early fetch")
        #expect(m.snapshot.effectiveDuration == 29.5)
    }

    @Test func aSongStartingWithFewQueuedFetchesEarlyWithP() {
        var m = RadioMachine()
        _ = m.handle(.start(channelID: "0"))
        _ = m.handle(.answered(requestID: 1, tracks: [t(1), t(2)]))
        let started = m.handle(.playerStarted(m.ticket, duration: 30))
        #expect(reports(started).map { "\($0.type) \($0.sid ?? "-") \($0.h ?? "-")" } == ["p 1 "])
        // While that fetch is in flight, the next start does not ask again.
        _ = m.handle(.playerFinished(m.ticket, .eof))
        #expect(reports(m.handle(.playerStarted(m.ticket, duration: 30))).isEmpty)
        // Its answer is appended, not a replacement.
        _ = m.handle(.answered(requestID: 2, tracks: [t(2), t(5), t(6)]))
        #expect(m.queue.map(\.sid) == ["5", "6"])
    }

    @Test func skipStartsTheNextQueuedSongAtOnceAndReportsBesideIt() {
        var m = playingMachine()
        let effects = m.handle(.command(.skip))
        #expect(reports(effects).map { "\($0.type) \($0.sid ?? "-") \($0.h ?? "-")" } == ["s 1 |1:s"])
        #expect(starts(effects) == ["2"], "the next song starts in the same step, before any answer")
        #expect(events(effects) == [.skipped(t(1))])
        #expect(m.current?.sid == "2")
        // The answer replaces only what has not started.
        let id = reports(effects)[0].id
        _ = m.handle(.answered(requestID: id, tracks: [t(7), t(8)]))
        #expect(m.current?.sid == "2")
        #expect(m.queue.map(\.sid) == ["7", "8"])
    }

    @Test func trashReportsBAndReplacesTheQueue() {
        var m = playingMachine()
        let effects = m.handle(.command(.trash))
        #expect(reports(effects).map { "\($0.type) \($0.sid ?? "-") \($0.h ?? "-")" } == ["b 1 |1:b"])
        #expect(starts(effects) == ["2"])
        #expect(events(effects) == [.trashed(t(1))])
        _ = m.handle(.answered(requestID: reports(effects)[0].id, tracks: [t(2), t(9)]))
        #expect(m.queue.map(\.sid) == ["9"], "the song now playing is dropped from the new list")
    }

    @Test func aTrashedSongIsNeverStartedAgainWhateverTheStationSends() {
        var m = playingMachine()
        let trash = m.handle(.command(.trash))
        #expect(trash.contains(.rememberTrashed(sid: "1")))
        // A station that ignores `b` answers with the trashed song at the head of the list.
        _ = m.handle(.answered(requestID: reports(trash)[0].id, tracks: [t(1), t(5), t(1), t(6)]))
        #expect(m.queue.map(\.sid) == ["5", "6"])
        // A one-song web answer that is the trashed song: nothing of it is queued.
        _ = m.handle(.command(.skip))
        let skip = m.handle(.command(.skip))
        _ = m.handle(.answered(requestID: reports(skip)[0].id, tracks: [t(1)]))
        #expect(!m.queue.contains { $0.sid == "1" } && m.current?.sid != "1")

        // The next run is told what was trashed before: its first list skips it too, and a
        // saved position of that song does not resume it.
        var next = RadioMachine()
        let saved = PlaybackPosition(sid: "1", channel: "0", position: 12, duration: 30, url: "http://x/1.mp3",
                                     title: "One", artist: "A")
        let start = next.handle(.start(channelID: "0", lastChannel: "0", lastPosition: saved, trashed: ["1"]))
        #expect(starts(start).isEmpty && plays(start).isEmpty)
        let answer = next.handle(.answered(requestID: reports(start)[0].id, tracks: [t(1), t(2)]))
        #expect(plays(answer) == ["2"])
        #expect(next.queue.isEmpty)
    }

    @Test func skipWithAnEmptyQueueStopsAndPlaysTheAnswer() {
        var m = playingMachine(queued: [])
        let effects = m.handle(.command(.skip))
        #expect(effects.contains(.stopPlayer))
        #expect(plays(effects).isEmpty)
        #expect(m.snapshot.loading)
        let answer = m.handle(.answered(requestID: reports(effects)[0].id, tracks: [t(5), t(6)]))
        #expect(plays(answer) == ["5"])
    }

    @Test func likeAndUnlikeFlipLocallyAndCarryNoHistory() {
        var m = playingMachine()
        let like = m.handle(.command(.like))
        #expect(reports(like).map { "\($0.type) \($0.sid ?? "-") \($0.h ?? "-")" } == ["r 1 -"])
        #expect(events(like) == [.liked(t(1, liked: true))])
        #expect(m.current?.liked == true)
        // An optional list in the answer replaces the queue, not the song.
        _ = m.handle(.answered(requestID: reports(like)[0].id, tracks: [t(11)]))
        #expect(m.current?.sid == "1")
        #expect(m.queue.map(\.sid) == ["11"])
        let unlike = m.handle(.command(.unlike))
        #expect(reports(unlike).map { "\($0.type) \($0.sid ?? "-")" } == ["u 1"])
        #expect(events(unlike) == [.unliked(t(1))])
        #expect(m.current?.liked == false)
        // The history now holds both, and the next long report carries them.
        let skip = m.handle(.command(.skip))
        #expect(reports(skip).first?.h == "|1:r|1:u|1:s")
    }

    @Test func naturalEndAcknowledgesWithEAndPlaysOn() {
        var m = playingMachine()
        _ = m.handle(.playerProgress(m.ticket, 29.9))
        let end = m.handle(.playerFinished(m.ticket, .eof))
        #expect(reports(end).map { "\($0.type) \($0.sid ?? "-") \($0.h ?? "-")" } == ["e 1 -"])
        #expect(events(end) == [.ended(t(1))])
        #expect(plays(end).isEmpty, "the player hands over to the song it holds queued")
        #expect(m.current?.sid == "2")
        guard case .deliver(_, let report) = end.first else { Issue.record("no e first: \(end)"); return }
        #expect(report.playedTime == 29.9)
    }

    @Test func naturalEndWithAnEmptyQueueSendsP() {
        var m = playingMachine(queued: [])
        // The start already asked early (p); answer it with nothing new, then end.
        _ = m.handle(.answered(requestID: 2, tracks: []))
        let end = m.handle(.playerFinished(m.ticket, .eof))
        #expect(reports(end).map { "\($0.type) \($0.sid ?? "-") \($0.h ?? "-")" } == ["e 1 -", "p 1 |1:e"])
        #expect(m.snapshot.loading)
        let answer = m.handle(.answered(requestID: reports(end)[1].id, tracks: [t(3)]))
        #expect(plays(answer) == ["3"])
    }

    @Test func channelSwitchSendsNewAndIgnoresStaleAnswers() {
        var m = playingMachine()
        let skip = m.handle(.command(.skip))
        let switchEffects = m.handle(.command(.channel("1")))
        #expect(events(switchEffects) == [.channel(ChannelInfo(id: "1", name: "Ambient"))])
        #expect(reports(switchEffects).map { "\($0.type) \($0.channel) \($0.sid ?? "-")" } == ["n 1 -"])
        #expect(m.queue.isEmpty)
        #expect(m.current?.sid == "2", "the song plays on until the new channel answers")
        // The skip's answer is stale now.
        _ = m.handle(.answered(requestID: reports(skip)[0].id, tracks: [t(40)]))
        #expect(m.queue.isEmpty)
        let answer = m.handle(.answered(requestID: reports(switchEffects)[0].id, tracks: [t(20), t(21)]))
        #expect(plays(answer) == ["20"])
    }

    @Test func unknownChannelIsRefusedOnceTheListIsKnown() {
        var m = playingMachine()
        let effects = m.handle(.command(.channel("99")))
        #expect(events(effects) == [.error(.unknownChannel("99"))])
        #expect(reports(effects).isEmpty)
        #expect(m.channel?.id == "0")
        #expect(reports(m.handle(.command(.channel("-3")))).map(\.type) == ["n"], "red heart is never listed")
    }

    @Test func failedFetchIsRetriedWithBackoffAndStaleTimersAreIgnored() {
        var m = RadioMachine(configuration: .init(retry: Backoff(initial: 1, cap: 2)))
        _ = m.handle(.start(channelID: "0"))
        let failed = m.handle(.failed(requestID: 1, .unreachable("Couldn't connect to server")))
        #expect(events(failed) == [.error(.service(.unreachable("Couldn't connect to server")))])
        guard case .scheduleRetry(let delay, let token)? = failed.last else { Issue.record("no retry"); return }
        #expect(delay == 1)
        #expect(m.snapshot.problem == .service(.unreachable("Couldn't connect to server")))
        #expect(m.handle(.retryTimer(token: token - 1)).isEmpty, "a stale timer does nothing")
        let retry = m.handle(.retryTimer(token: token))
        #expect(reports(retry).map(\.type) == ["n"])
        let again = m.handle(.failed(requestID: reports(retry)[0].id, .httpStatus(502)))
        #expect(again.last == .scheduleRetry(after: 2, token: token + 1))
        let third = m.handle(.retryTimer(token: token + 1))
        _ = m.handle(.answered(requestID: reports(third)[0].id, tracks: [t(1)]))
        #expect(m.snapshot.problem == nil)
        #expect(m.current?.sid == "1")
    }

    @Test func emptyChannelIsExplainedAndRetriedLaterAndLater() throws {
        var m = RadioMachine(configuration: .init(retry: Backoff(initial: 1, cap: 4)))
        _ = m.handle(.start(channelID: "-3"))
        var effects = m.handle(.answered(requestID: 1, tracks: []))
        #expect(events(effects) == [.error(.emptyChannel(ChannelInfo(id: "-3", name: "-3")))])
        #expect(m.snapshot.loading, "never a silent stop: the radio still waits for songs")
        // Each empty answer waits longer before asking again; the last delay repeats.
        var delays: [Double] = []
        for _ in 0..<4 {
            guard case .scheduleRetry(let delay, let token)? = effects.last else {
                Issue.record("no retry after \(effects)")
                return
            }
            delays.append(delay)
            let retry = m.handle(.retryTimer(token: token))
            #expect(reports(retry).map { "\($0.type) \($0.channel)" } == ["n -3"])
            effects = m.handle(.answered(requestID: try #require(reports(retry).first).id, tracks: []))
        }
        #expect(delays == [1, 2, 4, 4])
        // Songs at last: they play, and the backoff starts over.
        guard case .scheduleRetry(_, let token)? = effects.last else { Issue.record("no retry"); return }
        let retry = m.handle(.retryTimer(token: token))
        #expect(plays(m.handle(.answered(requestID: try #require(reports(retry).first).id, tracks: [t(1)]))) == ["1"])
        #expect(m.retryAttempt == 0)
    }

    @Test func aSongThatFailsWhileTheStationAnswersIsDropped() {
        var m = playingMachine(queued: [2, 3])
        let failed = m.handle(.playerFinished(m.ticket, .failed(.loadFailed("loading failed"))))
        #expect(events(failed) == [.error(.player(.loadFailed("loading failed")))])
        #expect(reports(failed).map { "\($0.type) \($0.sid ?? "-")" } == ["p 1"], "ask the station first")
        #expect(plays(failed).isEmpty)
        #expect(m.snapshot.loading)
        // The station answers at once: the song was at fault, so it goes.
        let answer = m.handle(.answered(requestID: reports(failed)[0].id, tracks: [t(7)]))
        #expect(plays(answer) == ["2"])
        #expect(m.queue.map(\.sid) == ["3", "7"])
    }

    @Test func aSongThatFailsWhileTheStationIsDownWaitsAndPlaysAgain() {
        var m = playingMachine(queued: [2, 3])
        let failed = m.handle(.playerFinished(m.ticket, .failed(.loadFailed("loading failed"))))
        let probe = reports(failed)[0].id
        let down = m.handle(.failed(requestID: probe, .unreachable("Connection refused")))
        guard case .scheduleRetry(_, let token)? = down.last else { Issue.record("no retry"); return }
        #expect(m.queue.map(\.sid) == ["1", "2", "3"], "the song waits at the head of the queue")
        let retry = m.handle(.retryTimer(token: token))
        #expect(reports(retry).map { "\($0.type) \($0.sid ?? "-")" } == ["p 1"])
        // Back: the same song plays again instead of being dropped.
        let back = m.handle(.answered(requestID: reports(retry)[0].id, tracks: [t(9)]))
        #expect(plays(back) == ["1"])
        #expect(m.queue.map(\.sid) == ["2", "3", "9"])
    }

    @Test func repeatedFailuresWithTheStationUpStopWithAnExplanationAndASlowRetry() {
        var m = RadioMachine(configuration: .init(maxConsecutiveFailures: 2, retry: Backoff(initial: 1, multiplier: 30, cap: 30)))
        _ = m.handle(.start(channelID: "0"))
        _ = m.handle(.answered(requestID: 1, tracks: [t(1), t(2), t(3)]))
        let first = m.handle(.playerFinished(m.ticket, .failed(.loadFailed("x"))))
        _ = m.handle(.answered(requestID: reports(first)[0].id, tracks: []))
        #expect(m.current?.sid == "2")
        let second = m.handle(.playerFinished(m.ticket, .failed(.loadFailed("x"))))
        #expect(events(second) == [.error(.player(.loadFailed("x")))])
        #expect(second.last == .scheduleRetry(after: 30, token: m.retryToken))
        #expect(m.current == nil && m.queue.isEmpty && m.snapshot.loading)
    }

    @Test func theStationAnsweringAgainSendsAWaitingFetchAtOnce() {
        var m = RadioMachine(configuration: .init(retry: .constant(30)))
        _ = m.handle(.start(channelID: "0"))
        _ = m.handle(.failed(requestID: 1, .unreachable("refused")))
        #expect(m.snapshot.loading)
        // An outbox report from an earlier run gets through: the station is back.
        let back = m.handle(.answered(requestID: nil, tracks: []))
        #expect(reports(back).map(\.type) == ["n"])
    }

    @Test func theSnapshotCountsWaitingReportsAndTheNextRetry() {
        var m = RadioMachine()
        _ = m.handle(.outboxChanged(3))
        let at = Date(timeIntervalSince1970: 1_000)
        _ = m.handle(.retryScheduled(at: at))
        #expect(m.snapshot.pendingReports == 3)
        #expect(m.snapshot.nextRetry == at)
    }

    @Test func commandsThatNeedASongSayNothingIsPlaying() {
        var m = RadioMachine()
        for command in [RadioCommand.skip, .trash, .like, .unlike, .pause, .resume, .toggle, .seek(.relative(5))] {
            #expect(events(m.handle(.command(command))) == [.error(.nothingPlaying)])
        }
    }

    @Test func positionIsSavedEveryFewSecondsOnPauseAndOnQuit() {
        var m = playingMachine()
        #expect(m.handle(.playerProgress(m.ticket, 1)).isEmpty)
        let save = m.handle(.playerProgress(m.ticket, 5.2))
        guard case .savePosition(let p)? = save.first else { Issue.record("no save at 5.2 s"); return }
        #expect(p.sid == "1" && p.position == 5.2 && p.channel == "0")
        #expect(m.handle(.playerProgress(m.ticket, 7)).isEmpty)
        let pause = m.handle(.playerPaused)
        #expect(pause.contains { if case .savePosition(let q) = $0 { return q.position == 7 }; return false })
        let quit = m.handle(.command(.quit))
        #expect(quit.count == 4)
        #expect(quit.first == .endListen(id: 1, listened: 7, outcome: .quit, liked: false))
        #expect(quit.suffix(2) == [.stopPlayer, .quit])
    }

    /// `live <id>` of a channel the station lists as live ends the radio as `quit` does
    /// (the listen ended, the position saved), saying where the listener goes first; one
    /// not listed live, or not listed, is refused and the radio plays on.
    @Test func liveChannelEndsTheRadioForABroadcastTheStationListsLive() {
        var m = RadioMachine()
        let ambient = ChannelInfo(id: "1", name: "Ambient", live: true)
        _ = m.handle(.channelsLoaded([ChannelInfo(id: "0", name: "Personal"), ambient]))
        _ = m.handle(.start(channelID: "0"))
        _ = m.handle(.answered(requestID: 1, tracks: [t(1), t(2), t(3)]))
        _ = m.handle(.playerStarted(m.ticket, duration: 30))
        _ = m.handle(.playerProgress(m.ticket, 4))
        #expect(m.handle(.command(.liveChannel("0"))) == [.emit(.error(.notLive("0")))])
        #expect(m.handle(.command(.liveChannel("9"))) == [.emit(.error(.notLive("9")))])
        #expect(m.handle(.command(.radio)) == [.emit(.error(.alreadyRadio))], "the radio plays on")
        #expect(m.current?.sid == "1")
        let going = m.handle(.command(.liveChannel("1")))
        #expect(going.first == .emit(.goingLive(ambient)))
        #expect(going.dropFirst().first == .endListen(id: 1, listened: 4, outcome: .quit, liked: false))
        #expect(going.contains { if case .savePosition(let p) = $0 { return p.sid == "1" && p.position == 4 }; return false })
        #expect(going.suffix(2) == [.stopPlayer, .quit])
        #expect(m.handle(.command(.liveChannel("1"))).isEmpty, "gone: nothing more")
    }

    @Test func statusReportsWhatPlays() {
        var m = playingMachine()
        _ = m.handle(.playerProgress(m.ticket, 3))
        _ = m.handle(.playerVolume(40))
        #expect(events(m.handle(.command(.status))) == [.status(RadioSnapshot(
            channel: ChannelInfo(id: "0", name: "Personal"), track: t(1), position: 3, duration: 30, paused: false,
            volume: 40, queueLength: 3, channels: [ChannelInfo(id: "0", name: "Personal"), ChannelInfo(id: "1", name: "Ambient")]))])
    }

    @Test func historyIsBoundedAndOrderedOldestFirst() {
        var m = RadioMachine(configuration: .init(historyCapacity: 2))
        _ = m.handle(.start(channelID: "0"))
        _ = m.handle(.answered(requestID: 1, tracks: [t(1), t(2), t(3), t(4)]))
        _ = m.handle(.command(.skip))
        _ = m.handle(.command(.skip))
        let third = m.handle(.command(.trash))
        #expect(reports(third).first?.h == "|2:s|3:b")
    }
}
