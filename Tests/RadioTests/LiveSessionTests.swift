import RadioAPI
import Synchronization
import Testing
@testable import Radio

/// A live channel's session over a fake station and player: where it opens the broadcast,
/// the song it names as the position runs on, a seek back, a failure, a vote.
struct LiveSessionTests {
    /// A station whose windows and programme the test sets, recording what it was asked.
    final class FakeLiveStation: LiveStation {
        struct State {
            /// The live window, and the window of any `begintime`.
            var live = LiveWindow(firstStart: 0, joinStart: 0, newestEnd: 0)
            var from = LiveWindow(firstStart: 0, joinStart: 0, newestEnd: 0)
            var aired: [AiredSong] = []
            var asked: [String] = []
            var refuseWindows = false
        }
        let state = Mutex(State())

        func window(channel: String, from begin: Int64?) async throws(ServiceFailure) -> LiveWindow {
            let answer = state.withLock { s -> LiveWindow? in
                s.asked.append("window \(channel) \(begin.map(String.init) ?? "live")")
                return s.refuseWindows ? nil : begin == nil ? s.live : s.from
            }
            guard let answer else { throw .httpStatus(404) }
            return answer
        }

        func aired(channel: String) async throws(ServiceFailure) -> [AiredSong] {
            state.withLock { s in
                s.asked.append("aired \(channel)")
                return s.aired
            }
        }

        func streamURL(channel: String, from begin: Int64) -> String { "live/\(channel)@\(begin)" }

        func feedback(channel: String, type: ReportType, sid: String) async throws(ServiceFailure) -> LiveTally {
            state.withLock { $0.asked.append("feedback \(channel) \(type.rawValue) \(sid)") }
            return LiveTally(sid: sid, type: type, onAir: true, votes: 1, listeners: 2, ending: false)
        }
    }

    static let songs = [
        AiredSong(sid: "2", title: "B", artist: "b", start: 105_000, end: 112_000, url: "u2", onAir: true),
        AiredSong(sid: "1", title: "A", artist: "a", start: 94_000, end: 105_000, url: "u1", onAir: false),
    ]

    @Test(.timeLimit(.minutes(1))) func opensAtTheJoiningSegmentNamesTheSongHeardMovesBackAndVotes() async throws {
        let station = FakeLiveStation()
        station.state.withLock {
            $0.live = LiveWindow(firstStart: 90_000, joinStart: 100_000, newestEnd: 106_000)
            $0.from = LiveWindow(firstStart: 95_000, joinStart: 100_000, newestEnd: 108_000)
            $0.aired = Self.songs
        }
        let player = FakePlayer()
        let session = LiveSession(channel: ChannelInfo(id: "4", name: "Jazz"), station: station, player: player,
                                  retryDelay: .milliseconds(10))
        var events = session.events.makeAsyncIterator()
        await session.start()
        #expect(await events.next() == .channel(ChannelInfo(id: "4", name: "Jazz")))
        #expect(player.loads == ["live/4@100000"], "the live edge: the third segment from the end")

        // Position 0 is the joining segment's date: song 1; five seconds on, song 2.
        player.emit(.started(player.lastItem, duration: nil))
        guard case .livePlaying(let first, _, _)? = await events.next() else { Issue.record("no song"); return }
        #expect(first.sid == "1" && first.title == "A" && first.length == 11)
        player.emit(.progress(player.lastItem, position: 5.2))
        guard case .livePlaying(let second, _, _)? = await events.next() else { Issue.record("no song"); return }
        #expect(second.sid == "2")

        // Back ten seconds from 105 200: the window from 95 200 starts at its segment, 95 000.
        await session.send(.seek(.relative(-10)))
        #expect(station.state.withLock { $0.asked }.contains("window 4 95200"))
        #expect(player.loads == ["live/4@100000", "live/4@95000"])

        // A failed window: one error, the stream in the player is left alone.
        station.state.withLock { $0.refuseWindows = true }
        await session.send(.live)
        #expect(await events.next() == .error(.service(.httpStatus(404))))
        #expect(player.loads.count == 2)

        // A skip is a vote on the song heard (song 2 still, the new stream not started yet).
        player.emit(.started(player.lastItem, duration: nil))
        guard case .livePlaying(let back, _, _)? = await events.next() else { Issue.record("no song"); return }
        #expect(back.sid == "1", "95 000 is song 1's")
        await session.send(.skip)
        #expect(station.state.withLock { $0.asked }.last == "feedback 4 s 1")
        guard case .voted(let voted, .skip, let tally)? = await events.next() else { Issue.record("no vote"); return }
        #expect(voted.sid == "1" && tally.votes == 1 && tally.listeners == 2)
        #expect(await session.snapshot().live?.vote == tally)

        await session.send(.quit)
        #expect(player.commands.last == "stop")
        #expect(await events.next() == nil)
    }

    /// Numbers past what 64 bits of milliseconds hold, from the station (a song aired from
    /// the earliest moment to the latest, a window as wide) and from the listener (a seek of
    /// 1e300 seconds either way): held at the ends, never trapped on.
    @Test(.timeLimit(.minutes(1))) func numbersPast64BitsAreHeldAtTheirEnds() async throws {
        let station = FakeLiveStation()
        station.state.withLock {
            $0.live = LiveWindow(firstStart: 90_000, joinStart: 100_000, newestEnd: 106_000)
            $0.from = LiveWindow(firstStart: .min, joinStart: .min, newestEnd: .max)
            $0.aired = [AiredSong(sid: "1", title: "A", artist: "a", start: .min, end: .max, url: "u1", onAir: true)]
        }
        let player = FakePlayer()
        let session = LiveSession(channel: ChannelInfo(id: "4", name: "Jazz"), station: station, player: player,
                                  retryDelay: .milliseconds(10))
        var events = session.events.makeAsyncIterator()
        await session.start()
        #expect(await events.next() == .channel(ChannelInfo(id: "4", name: "Jazz")))
        player.emit(.started(player.lastItem, duration: nil))
        guard case .livePlaying(let song, _, _)? = await events.next() else { Issue.record("no song"); return }
        #expect(song.length == (Double(Int64.max) - Double(Int64.min)) / 1000)
        #expect(await session.snapshot().duration == song.length)

        // Forward past any edge: the edge it is.
        await session.send(.seek(.relative(1e300)))
        #expect(player.loads == ["live/4@100000", "live/4@100000"])
        // Back past the earliest moment: the earliest there is, 100 000 ms after Int64.min.
        player.emit(.started(player.lastItem, duration: nil))
        guard case .livePlaying? = await events.next() else { Issue.record("no song"); return }
        // From here on the live window is as wide too: the session reads it again while the
        // song on the air plays (at most once a second, so on a busy machine it may), and the
        // edge must then be the same held one.
        station.state.withLock { $0.live = $0.from }
        await session.send(.seek(.relative(-1e300)))
        #expect(station.state.withLock { $0.asked }.contains("window 4 \(Int64.min + 100_000)"))
        #expect(player.loads.last == "live/4@\(Int64.min)")
        player.emit(.started(player.lastItem, duration: nil))
        guard case .livePlaying(let back, _, _)? = await events.next() else { Issue.record("no song"); return }
        #expect(back.sid == "1")
        #expect(await session.snapshot().live?.behind == Double(Int64.max) / 1000)

        await session.send(.quit)
        #expect(await events.next() == nil)
    }

    /// A session tuned in, its `channel` event read, on channel 4 of `channels`.
    private func tunedIn(returnsToRadio: Bool) async -> (LiveSession, AsyncStream<RadioEvent>.Iterator, FakePlayer) {
        let station = FakeLiveStation()
        let player = FakePlayer()
        let channels = [ChannelInfo(id: "0", name: "My"), ChannelInfo(id: "3", name: "Folk", live: true),
                        ChannelInfo(id: "4", name: "Jazz", live: true), ChannelInfo(id: "9", name: "Old")]
        let session = LiveSession(channel: channels[2], station: station, player: player, channels: channels,
                                  returnsToRadio: returnsToRadio, retryDelay: .milliseconds(10))
        var events = session.events.makeAsyncIterator()
        await session.start()
        _ = await events.next()
        return (session, events, player)
    }

    @Test("entered from the radio: radio and a channel chosen end it for the radio (going_radio), live <id> for another broadcast; the radio's own commands are refused")
    func handsOn() async throws {
        var (session, events, player) = await tunedIn(returnsToRadio: true)
        #expect(await session.snapshot().channels.map(\.id) == ["0", "3", "4", "9"], "the channel list shows the station's")
        await session.send(.history(limit: nil))
        #expect(await events.next() == .error(.notOnLive("history", returnsToRadio: true)))
        await session.send(.channel("77"))
        #expect(await events.next() == .error(.unknownChannel("77")))
        await session.send(.liveChannel("9"))
        #expect(await events.next() == .error(.notLive("9")))
        await session.send(.channel("9"))
        #expect(await events.next() == .goingRadio("9"))
        #expect(await events.next() == nil, "the session ended")
        #expect(player.commands.last == "stop")

        (session, events, player) = await tunedIn(returnsToRadio: true)
        await session.send(.radio)
        #expect(await events.next() == .goingRadio(nil))
        #expect(await events.next() == nil)

        (session, events, player) = await tunedIn(returnsToRadio: true)
        await session.send(.liveChannel("3"))
        #expect(await events.next() == .goingLive(ChannelInfo(id: "3", name: "Folk", live: true)))
        #expect(await events.next() == nil)
    }

    @Test("sleep fades the broadcast to silence in ten steps and quits with the volume put back; set again, only the new one runs", .timeLimit(.minutes(1)))
    func sleepTimerEndsTheListening() async throws {
        var (session, events, player) = await tunedIn(returnsToRadio: true)
        await session.send(.sleep(3600))
        #expect(await events.next() == .sleep(seconds: 3600))
        let ends = try #require(await session.snapshot().sleepEnds)
        #expect(abs(ends.timeIntervalSinceNow - 3600) < 60, "\(ends)")
        await session.send(.sleep(0.2))
        #expect(await events.next() == .sleep(seconds: 0.2))
        var rest: [RadioEvent] = []
        while let event = await events.next() { rest.append(event) }
        let fades = [90, 80, 70, 60, 50, 40, 30, 20, 10, 0]
        #expect(rest == fades.map { RadioEvent.fading(volume: $0) }, "then the session ended: \(rest)")
        #expect(player.commands.filter { $0.hasPrefix("volume") } == fades.map { "volume \($0)" } + ["volume 100"])
        #expect(player.commands.last == "stop")
        #expect(await session.snapshot().volume == 100, "what the next listening starts at")
        #expect(await session.snapshot().sleepEnds == nil)
    }

    @Test("sleep off during the fade puts the volume back and the broadcast plays on", .timeLimit(.minutes(1)))
    func sleepOffDuringTheFade() async throws {
        let (session, events, player) = await tunedIn(returnsToRadio: false)
        var iterator = events
        await session.send(.sleep(5))
        #expect(await iterator.next() == .sleep(seconds: 5))
        #expect(await iterator.next() == .fading(volume: 90))
        await session.send(.sleep(nil))
        // A step may have come before the word reached the session; none comes after.
        var event = await iterator.next()
        while case .fading? = event { event = await iterator.next() }
        #expect(event == .sleep(seconds: nil))
        #expect(player.commands.last == "volume 100")
        await session.send(.status)
        guard case .status(let snapshot)? = await iterator.next() else { Issue.record("no status"); return }
        #expect(snapshot.sleepEnds == nil)
        #expect(!player.commands.contains("stop"))
        await session.send(.quit)
    }

    @Test("mhz --live: no radio to go back to, one error, and the broadcast plays on")
    func noRadioBehind() async throws {
        let (session, events, player) = await tunedIn(returnsToRadio: false)
        var iterator = events
        await session.send(.radio)
        #expect(await iterator.next() == .error(.noRadio))
        await session.send(.channel("3"))
        #expect(await iterator.next() == .error(.noRadio))
        await session.send(.download)
        #expect(await iterator.next() == .error(.notOnLive("download", returnsToRadio: false)))
        #expect(player.commands.last != "stop")
        await session.send(.quit)
    }
}
