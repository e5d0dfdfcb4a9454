import Adapters
import Backoff
import Foundation
import Playback
import Radio
import RadioAPI
import Settings
import Testing
import TestSupport
@testable import mhz

/// The radio over the real player: `RadioSession` driving `MpvAudioPlayer` over a real
/// libmpv `PlayerController` (`ao=null`), media served by `FaultyMediaServer` on 127.0.0.1,
/// and an in-memory station. Proves what the fakes cannot: that mpv really holds the next
/// song (fetched before the current one ends), that a refused media URL reaches the radio as
/// such, and that a reconnection reaches the snapshot.
@Suite(.serialized)
struct RadioOverMpvTests {
    /// A station in memory: answers long reports from a script of lists, keeps every report.
    final class ListStation: RadioService {
        private let state: Locked<(lists: [[Track]], reports: [Report])>

        init(lists: [[Track]]) { state = Locked((lists, [])) }

        var reports: [Report] { state.withLock { $0.reports } }

        func channels() async throws(ServiceFailure) -> [ChannelInfo] { [ChannelInfo(id: "0", name: "Personal")] }

        func send(_ report: Report) async throws(ServiceFailure) -> [Track] {
            state.withLock { s in
                s.reports.append(report)
                guard report.type.expectsList, !s.lists.isEmpty else { return [] }
                return s.lists.removeFirst()
            }
        }
    }

    /// One test's world.
    final class World: Sendable {
        let folder: TemporaryDirectory
        let server: FaultyMediaServer
        let controller: PlayerController
        let station: ListStation
        let session: RadioSession
        private let log = Locked<[(event: RadioEvent, at: ContinuousClock.Instant)]>([])
        private let snapshots = Locked<[RadioSnapshot]>([])
        private let narration: Task<Void, Never>

        /// `media`: file name → seconds (mp3 at `bitrate` kbit/s); `lists`: the station's
        /// answers, by file name.
        init(media: [String: Double], lists: [[String]], recovery: RecoveryPolicy = RecoveryPolicy(),
             bitrate: Int = 128, mpvOptions: [(String, String)] = []) throws {
            folder = try TemporaryDirectory(prefix: "mhz-radio-mpv")
            for (name, seconds) in media.sorted(by: { $0.key < $1.key }) {
                try MediaFactory.tone(at: folder.path(name), seconds: seconds, mp3Bitrate: bitrate)
            }
            let server = try FaultyMediaServer(root: folder.url)
            self.server = server
            let track = { (name: String) in
                Track(sid: name, title: name, artist: "Tone", length: media[name] ?? 0, url: server.url(name))
            }
            station = ListStation(lists: lists.map { $0.map(track) })
            // The composition root's own options (User-Agent, libcurl probe for refused URLs).
            var options = PlayCommand.playerOptions(audioOutput: "null", video: false, volume: 100,
                                                    http: RadioRuntime.httpConfiguration(Config()))
            options.recovery = recovery
            options.extraOptions = mpvOptions
            controller = try PlayerController(options: options)
            let snapshots = self.snapshots
            session = RadioSession(service: station,
                                   player: MpvAudioPlayer(controller: controller,
                                                          recoveryAttempts: options.recovery.maxAttempts),
                                   store: nil, onSnapshot: { snapshot in snapshots.withLock { $0.append(snapshot) } })
            let log = self.log, events = session.events
            narration = Task { for await event in events { log.withLock { $0.append((event, .now)) } } }
        }

        /// Everything narrated so far.
        var events: [RadioEvent] { log.withLock { $0.map(\.event) } }
        /// Every snapshot the session published.
        var published: [RadioSnapshot] { snapshots.withLock { $0 } }

        /// Waits for the first narrated event matching `match`; returns when it was seen.
        @discardableResult
        func waitFor(_ what: String, within limit: Duration = .seconds(30),
                     _ match: (RadioEvent) -> Bool) async throws -> ContinuousClock.Instant {
            do {
                return try await waitForValue(what, within: limit) { log.withLock { $0.first { match($0.event) } }?.at }
            } catch TestSupportError.timeout {
                throw TestSupportError.timeout("no \(what); narrated: \(events)")
            }
        }

        deinit {
            narration.cancel()
            controller.shutdown()
            server.stop()
        }
    }

    @Test func aNaturalEndHandsOverToTheSongMpvFetchedWhileTheLastOnePlayed() async throws {
        let world = try World(media: ["a.mp3": 2.5, "b.mp3": 3, "c.mp3": 3], lists: [["a.mp3", "b.mp3", "c.mp3"]])
        await world.session.start(channelID: "0")
        try await world.waitFor("playing a") { if case .playing(let t, _) = $0 { t.sid == "a.mp3" } else { false } }
        let ended = try await world.waitFor("ended a") { if case .ended(let t) = $0 { t.sid == "a.mp3" } else { false } }
        let started = try await world.waitFor("playing b") { if case .playing(let t, _) = $0 { t.sid == "b.mp3" } else { false } }
        #expect(ended.duration(to: started) < .seconds(1), "b followed a after \(ended.duration(to: started))")

        // b was fetched while a played: mpv held it queued, the radio loaded nothing.
        let firstB = try #require(world.server.requests(to: "/b.mp3").first)
        #expect(firstB.time < ended, "b was first asked for \(firstB.time.duration(to: ended)) before a ended")
        // And c is queued behind b while b plays.
        #expect(await eventually { !world.server.requests(to: "/c.mp3").isEmpty }, "c is prefetched while b plays")
        #expect(world.events.allSatisfy { if case .ended(let t) = $0 { t.sid != "b.mp3" } else { true } })
        // The `e` goes out through the report courier, on its own time: wait for it.
        #expect(await eventually { world.station.reports.contains { $0.type == .end } })
        #expect(world.station.reports.map(\.type).filter { $0 != .playing } == [.new, .end], "\(world.station.reports)")
        #expect(world.station.reports.contains { $0.type == .end && $0.sid == "a.mp3" })
        await world.session.send(.quit)
        try await within(.seconds(30), "the session quitting") { await world.session.waitUntilQuit() }
    }

    @Test func aRefusedMediaURLDropsTheSongAndPlaysAFreshList() async throws {
        let world = try World(media: ["x.mp3": 3, "a.mp3": 3, "b.mp3": 3], lists: [["x.mp3", "a.mp3"], ["b.mp3"]])
        world.server.script("/x.mp3") { _, _ in .status(404) }
        await world.session.start(channelID: "0")
        try await world.waitFor("the refusal") { $0 == .error(.player(.mediaUnavailable(status: 404))) }
        try await world.waitFor("playing b") { if case .playing(let t, _) = $0 { t.sid == "b.mp3" } else { false } }
        #expect(!world.events.contains { if case .playing(let t, _) = $0 { t.sid != "b.mp3" } else { false } },
                "neither x nor a (the queue x came with) played: \(world.events)")
        // `p x.mp3` asked for the fresh list; b, starting with nothing queued, asks for more.
        #expect(world.station.reports.map { "\($0.type.rawValue) \($0.sid ?? "-")" }.prefix(2) == ["n -", "p x.mp3"],
                "\(world.station.reports)")
        await world.session.send(.quit)
        try await within(.seconds(30), "the session quitting") { await world.session.waitUntilQuit() }
    }

    @Test func aBrokenStreamShowsTheReconnectionUntilTheSongPlaysOn() async throws {
        // 320 kbit/s: 40,000 bytes a second. The first request is cut after 4 s of audio;
        // the server then drops every request for 5 s, so at least one reload fails.
        let world = try World(media: ["tone.mp3": 10], lists: [["tone.mp3"]],
                              recovery: RecoveryPolicy(maxAttempts: 8, backoff: Backoff(initial: 0.3, cap: 0.6),
                                                       stallTimeout: 1.5, transportReconnectMaxDelay: 0),
                              bitrate: 320)
        let cutAt = Locked<ContinuousClock.Instant?>(nil)
        world.server.script("/tone.mp3") { _, rangeStart in
            cutAt.withLock { cut -> FaultyMediaServer.Reply in
                guard let cut else {
                    guard (rangeStart ?? 0) == 0 else { return .serve }
                    cut = .now
                    return .cutAfter(bytes: 160_000)
                }
                return ContinuousClock.now < cut + .seconds(5) ? .drop : .throttle(bytesPerSecond: 80_000)
            }
        }
        await world.session.start(channelID: "0")
        try await world.waitFor("reconnecting") {
            if case .reconnecting(let t, 1, 8) = $0 { t.sid == "tone.mp3" } else { false }
        }
        try await world.waitFor("reconnected") {
            if case .reconnected(let t) = $0 { t.sid == "tone.mp3" } else { false }
        }
        let shown = world.published.compactMap(\.reconnecting)
        #expect(shown.first == Reconnection(attempt: 1, maxAttempts: 8), "\(shown)")
        #expect(Set(shown.map(\.attempt)).count >= 2, "the first reload failed, so a second attempt was shown: \(shown)")
        #expect(world.published.last?.reconnecting == nil)
        #expect(await world.session.snapshot().track?.sid == "tone.mp3", "the same song plays on")
        await world.session.send(.quit)
        try await within(.seconds(30), "the session quitting") { await world.session.waitUntilQuit() }
    }

    /// The audio device goes away mid-song (`ao=pcm` writing into a folder that is then
    /// removed, and a device switch that makes mpv reopen its output). `ao=pcm` is not
    /// clocked, so mpv starts paused and the device is lost before it resumes.
    @Test func aLostAudioDevicePausesTheSongWithTheErrorAndResumePlaysItAgain() async throws {
        let sink = try TemporaryDirectory(prefix: "mhz-radio-pcm")
        let out = sink.path("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let world = try World(media: ["a.mp3": 20, "b.mp3": 20], lists: [["a.mp3", "b.mp3"]],
                              mpvOptions: [("ao", "pcm"), ("ao-pcm-file", out.appendingPathComponent("out.wav").path),
                                           ("pause", "yes")])
        let isA = { (event: RadioEvent) -> Bool in if case .playing(let t, _) = event { t.sid == "a.mp3" } else { false } }
        await world.session.start(channelID: "0")
        try await world.waitFor("playing a", isA)
        try FileManager.default.removeItem(at: out)
        try world.controller.setAudioDevice("bogus")
        try world.controller.resume()
        try await world.waitFor("the error") { $0 == .error(.player(.unavailable("audio output initialization failed"))) }
        let snapshot = await world.session.snapshot()
        #expect(snapshot.track?.sid == "a.mp3" && snapshot.paused, "\(snapshot)")
        #expect(snapshot.problem == .player(.unavailable("audio output initialization failed")))
        // A like after the failure: its `r` goes through the report line behind anything the
        // failure made, and its event after anything the failure narrated.
        await world.session.send(.like)
        try await world.waitFor("liked a") { if case .liked(let t) = $0 { t.sid == "a.mp3" } else { false } }
        #expect(await eventually { world.station.reports.contains { $0.type == .rate } })
        // The `p` a's start made, then the like: no report blames the song or the station.
        #expect(world.station.reports.map(\.type) == [.new, .playing, .rate], "\(world.station.reports)")
        #expect(!world.events.contains { if case .playing(let t, _) = $0 { t.sid == "b.mp3" } else { false } },
                "b did not play in a's place: \(world.events)")

        // The device is back: resume plays a again.
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        await world.session.send(.resume)
        #expect(await eventually(within: .seconds(20)) { world.events.filter(isA).count == 2 }, "\(world.events)")
        await world.session.send(.quit)
        try await within(.seconds(30), "the session quitting") { await world.session.waitUntilQuit() }
    }
}
