import Backoff
import Foundation
import Playback
import Testing
import TestSupport

/// Broken connections, stalls and refused URLs against real libmpv and `FaultyMediaServer`.
///
/// One test at a time: ffmpeg's log callback is process-wide and mpv binds it to the first
/// instance alive (see `MediaURLProbe`), so the "HTTP error 403" of a test that refuses its
/// URL can reach the log of another test's player while that one recovers from a cut, and
/// end its song as unavailable (seen once in a full run).
@Suite("PlayerController recovery", .serialized)
struct PlayerControllerRecoveryTests {
    /// Fast retries so the tests stay short; ffmpeg gets one immediate reconnect.
    static let quick = RecoveryPolicy(maxAttempts: 8, backoff: Backoff(initial: 0.3, cap: 0.6), stallTimeout: 1.5,
                                      transportReconnectMaxDelay: 0)
    /// The test mp3s are 320 kbit/s CBR: 40,000 bytes a second.
    static let bitrate = 320
    /// 160,000 bytes: 4 s of audio, far enough in that a reload there cannot be served by
    /// reading on from the file's start (ffmpeg reads forward instead of seeking for gaps
    /// under 32 KiB) and must ask for a Range.
    static let cut = 160_000

    /// A script that cuts the first request for the file at `cut` bytes, then answers every
    /// request with `afterwards` until `downFor` seconds have passed, then serves normally.
    static func cutThenDown(downFor seconds: Double, afterwards: FaultyMediaServer.Reply = .drop)
        -> FaultyMediaServer.Script {
        let cutAt = Locked<ContinuousClock.Instant?>(nil)
        return { _, rangeStart in
            cutAt.withLock { cutTime -> FaultyMediaServer.Reply in
                guard let cutTime else {
                    guard (rangeStart ?? 0) == 0 else { return .serve }  // a probe of the tail
                    cutTime = .now
                    return .cutAfter(bytes: cut)
                }
                // Back up: at twice real time, as a real network would, so a reload cannot
                // have the whole file in mpv's cache before it seeks to where it broke.
                return ContinuousClock.now < cutTime + .milliseconds(Int64(seconds * 1000))
                    ? afterwards : .throttle(bytesPerSecond: 2 * bitrate * 125)
            }
        }
    }

    /// A script that cuts the first request for the file at `cut` bytes, refuses every
    /// request after it up to and including the player's first reload (a request from byte
    /// 0), then serves at twice real time: at least two attempts, however late the player
    /// comes to its first.
    static func cutThenRefuseFirstReload() -> FaultyMediaServer.Script {
        let phase = Locked(0)  // 0 before the cut, 1 cut, 2 the first reload refused
        return { _, rangeStart in
            phase.withLock { phase -> FaultyMediaServer.Reply in
                switch phase {
                case 0:
                    guard (rangeStart ?? 0) == 0 else { return .serve }  // a probe of the tail
                    phase = 1
                    return .cutAfter(bytes: cut)
                case 1:
                    if (rangeStart ?? 0) == 0 { phase = 2 }
                    return .drop
                default:
                    // As a real network would, so a reload cannot have the whole file in
                    // mpv's cache before it seeks to where it broke.
                    return .throttle(bytesPerSecond: 2 * bitrate * 125)
                }
            }
        }
    }

    @Test("a connection cut mid-song is reloaded near where it broke, by a Range request, and plays on")
    func reloadAfterCut() async throws {
        // 6 s: the 4 s before the cut, and after the reload the second it plays past where it
        // broke, with room to spare before the end.
        let fixture = try await PlaybackFixture(media: ["tone.mp3": 6], options: PlayerOptions(recovery: Self.quick),
                                                mp3Bitrate: Self.bitrate)
        // Down until the player's first reload, after the 4 s of audio read before the cut
        // have played: that reload fails too, so there are at least two attempts.
        fixture.faulty.script("/tone.mp3", Self.cutThenRefuseFirstReload())
        let id = try fixture.player.load(fixture.faulty.url("tone.mp3"))
        _ = try await fixture.events.started(id)

        let recovering = try await fixture.events.next("recovering", timeout: .seconds(15)) {
            if case .recovering(id, 1, _) = $0 { true } else { false }
        }
        guard case .recovering(_, _, let brokeAt) = recovering else { return }
        #expect(brokeAt > 3.0 && brokeAt < 4.5, "the cut was at 4 s of audio; broke at \(brokeAt)")
        let recovered = try await fixture.events.next("recovered", timeout: .seconds(15)) {
            if case .recovered(id, _) = $0 { true } else { false }
        }
        guard case .recovered(_, let resumedAt) = recovered else { return }
        #expect(abs(resumedAt - brokeAt) < 0.5, "resumed at \(resumedAt), broke at \(brokeAt)")
        var position = try await fixture.events.progress(id)
        while position < resumedAt + 1 { position = try await fixture.events.progress(id) }
        #expect(try await fixture.events.finished(id, timeout: .seconds(15)) == .eof)

        let all = fixture.events.all
        #expect(all.filter { if case .started = $0 { true } else { false } }.count == 1, "\(all)")
        #expect(!all.contains { if case .gaveUp = $0 { true } else { false } })
        let attempts = all.compactMap { if case .recovering(_, let attempt, _) = $0 { attempt } else { nil } }
        #expect(attempts.count >= 2 && attempts == Array(1...attempts.count), "attempts count up from 1: \(attempts)")
        // It resumed where it broke, not from the start: nothing after `recovered` is earlier.
        let afterRecovery = all[(all.firstIndex(of: recovered) ?? 0)...].compactMap { $0.progressPosition(of: id) }
        #expect(afterRecovery.allSatisfy { $0 >= brokeAt - 0.5 }, "\(afterRecovery)")
        // ffmpeg first tried to resume the cut connection itself with a Range from the cut
        // offset (refused here); the reload that worked is a new request. (It starts at byte
        // 0: ffmpeg reads forward rather than reconnecting for seeks within the TCP window,
        // which on loopback exceeds this whole file.)
        let requests = fixture.faulty.requests(to: "/tone.mp3")
        #expect(requests.contains { $0.rangeStart == Self.cut && $0.reply == .drop }, "\(requests)")
        #expect(requests.last.map { $0.status == 206 && $0.reply != .drop } == true, "\(requests)")
    }

    @Test("a connection cut once is resumed by ffmpeg's reconnect with a Range from the cut, invisibly")
    func transportReconnect() async throws {
        // 5 s: the 4 s before the cut and one after it, fetched by the reconnect.
        let fixture = try await PlaybackFixture(media: ["tone.mp3": 5], mp3Bitrate: Self.bitrate)
        let once = Locked(false)
        fixture.faulty.script("/tone.mp3") { _, _ in
            once.withLock { used in
                defer { used = true }
                return used ? .serve : .cutAfter(bytes: Self.cut)
            }
        }
        let id = try fixture.player.load(fixture.faulty.url("tone.mp3"))
        _ = try await fixture.events.started(id)
        #expect(try await fixture.events.finished(id, timeout: .seconds(15)) == .eof)
        let requests = fixture.faulty.requests(to: "/tone.mp3")
        #expect(requests.count == 2, "\(requests)")
        #expect(requests.last.map { $0.rangeStart == Self.cut && $0.status == 206 && $0.reply == .serve } == true,
                "\(requests)")
        #expect(!fixture.events.all.contains { if case .recovering = $0 { true } else { false } })
    }

    @Test("a URL refused with 403 after a cut (expired) finishes as unavailable, not recovered")
    func expiredMidSong() async throws {
        let fixture = try await PlaybackFixture(media: ["tone.mp3": 10], options: PlayerOptions(recovery: Self.quick),
                                                mp3Bitrate: Self.bitrate)
        fixture.faulty.script("/tone.mp3", Self.cutThenDown(downFor: 60, afterwards: .status(403)))
        let id = try fixture.player.load(fixture.faulty.url("tone.mp3"))
        _ = try await fixture.events.started(id)

        #expect(try await fixture.events.finished(id, timeout: .seconds(20)) == .mediaUnavailable(status: 403))
        #expect(!fixture.events.all.contains { if case .recovered = $0 { true } else { false } })
    }

    @Test("when the server stays down the player gives up after maxAttempts with connectionLost")
    func givesUp() async throws {
        var policy = Self.quick
        policy.maxAttempts = 2
        let fixture = try await PlaybackFixture(media: ["tone.mp3": 10], options: PlayerOptions(recovery: policy),
                                                mp3Bitrate: Self.bitrate)
        fixture.faulty.script("/tone.mp3", Self.cutThenDown(downFor: 600))
        let id = try fixture.player.load(fixture.faulty.url("tone.mp3"))
        _ = try await fixture.events.started(id)

        let reason = try await fixture.events.finished(id, timeout: .seconds(20))
        let all = fixture.events.all
        #expect(reason == .connectionLost, "\(all)")
        let attempts = all.compactMap { if case .recovering(_, let attempt, _) = $0 { attempt } else { nil } }
        #expect(attempts == [1, 2])
        let gaveUp = try #require(all.firstIndex { if case .gaveUp(id, 2, _) = $0 { true } else { false } })
        #expect(all[gaveUp + 1] == .finished(id, .connectionLost))
    }

    @Test("a short stall is reported as buffering, then playback goes on by itself")
    func shortStallBuffers() async throws {
        var policy = Self.quick
        policy.stallTimeout = 30
        let fixture = try await PlaybackFixture(media: ["tone.mp3": 2], options: PlayerOptions(recovery: policy),
                                                mp3Bitrate: Self.bitrate)
        // 1 s of audio, then 3 s of silence on the wire (network-timeout is 10 s): playback
        // runs dry and waits, then goes on when the bytes come.
        let once = Locked(false)
        fixture.faulty.script("/tone.mp3") { _, _ in
            once.withLock { used in
                defer { used = true }
                return used ? .serve : .stallAfter(bytes: 40_000, seconds: 3)
            }
        }
        let events = fixture.events
        let id = try fixture.player.load(fixture.faulty.url("tone.mp3"))
        _ = try await events.started(id)
        try await events.next("buffering(true)") { $0 == .buffering(id, true) }
        try await events.next("buffering(false)") { $0 == .buffering(id, false) }
        #expect(try await events.finished(id, timeout: .seconds(15)) == .eof)
        #expect(!events.all.contains { if case .recovering = $0 { true } else { false } }, "\(events.all)")
    }

    @Test("a stall longer than stallTimeout is reloaded at its position")
    func longStallReloads() async throws {
        // 3 s: the 2 s before the stall and one after the reload to play to the end.
        let fixture = try await PlaybackFixture(media: ["tone.mp3": 3], options: PlayerOptions(recovery: Self.quick),
                                                mp3Bitrate: Self.bitrate)
        let once = Locked(false)
        fixture.faulty.script("/tone.mp3") { _, _ in
            once.withLock { used in
                defer { used = true }
                return used ? .serve : .stallAfter(bytes: 80_000, seconds: 20)
            }
        }
        let id = try fixture.player.load(fixture.faulty.url("tone.mp3"))
        _ = try await fixture.events.started(id)
        try await fixture.events.next("buffering(true)") { $0 == .buffering(id, true) }
        let recovering = try await fixture.events.next("recovering") {
            if case .recovering(id, 1, _) = $0 { true } else { false }
        }
        guard case .recovering(_, _, let stalledAt) = recovering else { return }
        #expect(stalledAt > 1.0 && stalledAt < 2.2, "80,000 bytes are 2 s of audio; stalled at \(stalledAt)")
        _ = try await fixture.events.next("recovered") { if case .recovered(id, _) = $0 { true } else { false } }
        #expect(try await fixture.events.finished(id, timeout: .seconds(15)) == .eof)
    }

    @Test("403 and 404 on load finish as unavailable with the status; mpv calls it a failed load",
          arguments: [403, 404])
    func refusedOnLoad(status: Int) async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-refused")
        try await offPool { try MediaFactory.tone(at: folder.path("tone.mp3"), seconds: 2) }
        let server = try FaultyMediaServer(root: folder.url)
        defer { server.stop() }
        server.script("/tone.mp3") { _, _ in .status(status) }

        let probe = TestStatusProbe()
        let player = try PlayerController(options: PlayerOptions(audioOutput: "null", statusProbe: probe))
        let events = EventCollector(player.events)
        let id = try player.load(server.url("tone.mp3"))
        let reason = try await events.finished(id)
        #expect(reason == .mediaUnavailable(status: status), "\(events.all)")
        // Asked once, about exactly that URL (the log's status may be another player's).
        #expect(probe.urls == [server.url("tone.mp3")])
        #expect(!events.all.contains { if case .started = $0 { true } else { false } })
        player.shutdown()

        // mpv's own words for it are those of a load that failed.
        #expect(reason.mpvWords == "loading failed")
    }
}
