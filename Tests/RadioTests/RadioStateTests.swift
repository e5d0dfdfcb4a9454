import Backoff
import Testing
@testable import Radio
import RadioAPI

/// The machine's explicit state: which state each step leads to, what it carries, and the
/// decisions that live in the machine (resume or start fresh, where a long item starts,
/// which reports are kept in the outbox).
struct RadioStateTests {
    /// The state's case name and what it waits for, for compact comparisons.
    func describe(_ state: RadioState) -> String {
        func fetch(_ fetch: ListFetch?) -> String {
            switch fetch {
            case .asking(let request)?: "asking \(request.type.rawValue)#\(request.id)"
            case .retrying(let timer)?: "retrying \(timer.type.rawValue)"
            case nil: "no fetch"
            }
        }
        switch state {
        case .idle: return "idle"
        case .quit: return "quit"
        case .silent(let silence): return "silent, \(fetch(silence.fetch)), last \(silence.lastSid ?? "-")"
        case .playing(let now):
            let slot: String
            switch now.slot {
            case .held: slot = "held"
            case .loaded(let song): slot = "\(song.stage), next \(song.next?.track.sid ?? "-")"
            }
            return "playing \(now.track.sid) (\(slot)), \(fetch(now.fetch))"
        }
    }

    @Test func fromIdleThroughSilenceToPlayingAndBack() {
        var m = RadioMachine(configuration: .init(retry: .constant(5)))
        #expect(describe(m.state) == "idle")
        _ = m.handle(.start(channelID: "0"))
        #expect(describe(m.state) == "silent, asking n#1, last -")
        _ = m.handle(.failed(requestID: 1, .unreachable("refused")))
        #expect(describe(m.state) == "silent, retrying n, last -")
        _ = m.handle(.retryTimer(token: m.retryToken))
        #expect(describe(m.state) == "silent, asking n#2, last -")
        _ = m.handle(.answered(requestID: 2, tracks: [t(1), t(2)]))
        #expect(describe(m.state) == "playing 1 (opening, next 2), no fetch")
        _ = m.handle(.playerStarted(m.ticket, duration: 30))
        #expect(describe(m.state) == "playing 1 (sounding, next 2), asking p#3", "one queued: an early p")
        _ = m.handle(.answered(requestID: 3, tracks: []))
        #expect(describe(m.state) == "playing 1 (sounding, next 2), no fetch")
        _ = m.handle(.playerFinished(m.ticket, .eof))
        #expect(describe(m.state) == "playing 2 (opening, next -), no fetch", "handed over to the queued song")
        let end = m.handle(.playerFinished(m.ticket, .eof))
        #expect(fetched(end) == ["p"])
        #expect(describe(m.state) == "silent, asking p#6, last 2", "e 2 was #5")
        let quit = m.handle(.command(.quit))
        #expect(quit == [.stopPlayer, .quit])
        #expect(describe(m.state) == "quit")
        #expect(m.handle(.answered(requestID: 6, tracks: [t(7)])).isEmpty, "after quit nothing happens")
        #expect(m.handle(.command(.status)).isEmpty)
    }

    @Test func anAudioOutputFailureHoldsTheSongOutOfThePlayerUntilResumed() {
        var m = playingMachine()
        _ = m.handle(.playerProgress(m.ticket, 12))
        _ = m.handle(.playerFinished(m.ticket, .failed(.unavailable("no device"))))
        #expect(describe(m.state) == "playing 1 (held), no fetch")
        #expect(m.currentTicket == nil)
        let resume = m.handle(.command(.resume))
        #expect(plays(resume) == ["1"])
        #expect(resume.contains(.play(t(1), startAt: 12, ticket: m.ticket)))
        #expect(describe(m.state) == "playing 1 (opening, next 2), no fetch")
    }

    @Test func fetchesGoStraightToTheStationAndFeedbackThroughTheOutbox() {
        var m = playingMachine()
        #expect(delivered(m.handle(.command(.like))) == ["r"])
        #expect(delivered(m.handle(.command(.unlike))) == ["u"])
        #expect(delivered(m.handle(.command(.skip))) == ["s"])
        #expect(delivered(m.handle(.command(.trash))) == ["b"])
        #expect(fetched(m.handle(.command(.channel("1")))) == ["n"])
        var dry = playingMachine(queued: [])
        _ = dry.handle(.answered(requestID: 2, tracks: []))  // the early p brought nothing
        let end = dry.handle(.playerFinished(dry.ticket, .eof))
        #expect(delivered(end) == ["e"])
        #expect(fetched(end) == ["p"], "the queue ran dry")
    }

    @Test func theMachineDecidesWhetherTheLastSessionResumes() {
        func start(_ last: PlaybackPosition?, channel: String? = nil, remembered: String? = "0") -> [RadioEffect] {
            var m = RadioMachine()
            _ = m.handle(.channelsLoaded([ChannelInfo(id: "0", name: "P"), ChannelInfo(id: "1", name: "A")]))
            return m.handle(.start(channelID: channel, lastChannel: remembered, lastPosition: last))
        }
        let left = ResumeTests.left(t(5), at: 12.5)
        #expect(plays(start(left)) == ["5"], "the remembered channel, the song left midway")
        #expect(start(left).contains(.saveChannel("0")))
        #expect(plays(start(left, channel: "1")).isEmpty, "another channel starts fresh")
        #expect(start(left, channel: "1").contains(.saveChannel("1")))
        #expect(plays(start(left, remembered: nil)) == ["5"], "no remembered channel: the personal one, 0")
        var finished = left
        finished.position = 29
        #expect(plays(start(finished)).isEmpty, "a finished song starts fresh")
        var atZero = left
        atZero.position = 0
        #expect(plays(start(atZero)).isEmpty)
        var noURL = left
        noURL.url = ""
        #expect(plays(start(noURL)).isEmpty)
        var gone = ResumeTests.left(t(5), at: 12.5, channel: "9")
        #expect(plays(start(gone, remembered: "9")).isEmpty, "a channel the station no longer lists falls back")
        gone.channel = "0"
        #expect(plays(start(gone, remembered: "9")).isEmpty,
                "a fallback to the personal channel starts fresh even for a song left there")
    }

    @Test func aLongItemStartsWhereItWasLeftWhetherLoadedOrQueued() {
        var m = RadioMachine(configuration: .init(longItemSeconds: 600))
        _ = m.handle(.start(channelID: "0"))
        var mix = t(9)
        mix.length = 3600
        var episode = t(8)
        episode.length = 0  // the station gives no length: the saved duration decides
        let saved = [
            "9": PlaybackPosition(sid: "9", channel: "0", position: 1500, duration: 3600, url: mix.url),
            "8": PlaybackPosition(sid: "8", channel: "0", position: 700, duration: 1800, url: episode.url),
            "1": PlaybackPosition(sid: "1", channel: "0", position: 20, duration: 30, url: t(1).url),
        ]
        let answer = m.handle(.answered(requestID: 1, tracks: [mix, episode, t(1)], saved: saved))
        #expect(answer.first == .play(mix, startAt: 1500, ticket: m.ticket))
        #expect(answer.contains(.queueNext(episode, startAt: 700, ticket: PlayTicket(m.ticket.rawValue + 1))))
        #expect(m.snapshot.position == 1500)
        _ = m.handle(.playerStarted(m.ticket, duration: 3600))
        let skip = m.handle(.command(.skip))
        #expect(skip.contains(.advancePlayer(episode, startAt: 700, ticket: m.ticket)))
        #expect(m.snapshot.position == 700)
        #expect(queued(skip) == ["1"])
        #expect(skip.contains(.queueNext(t(1), startAt: 0, ticket: PlayTicket(m.ticket.rawValue + 1))),
                "a short song starts over")
    }
}
