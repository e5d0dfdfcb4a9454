import Foundation
@testable import Station
import Testing
import TestSupport

/// A restart of the station is invisible to its live listeners: `mhz serve` restarts
/// itself on `SIGHUP` in the same process with its listening socket kept open (the real
/// mpv plays on through it), and after any stop and start (a graceful one, a `kill -9`) the
/// broadcast goes on from the last segment published: the media sequence, the dates and
/// the clock continue, and the song on the air is taken up where it was.
@Suite("Live broadcast across restarts")
struct LiveRestartTests {
    /// The genre of the songs: one public channel holding them all.
    static let genre = "Restarttest"

    /// Three songs of 40 seconds, long enough that a restart comes in the middle of one,
    /// made with ffmpeg once per test process.
    static var library: URL {
        get async throws { try await libraryTask.value }
    }

    private static let libraryTask = Task {
        try await offPool { () throws -> URL in
            let root = StationFixtures.sharedDataDirectory.appendingPathComponent("restart-library", isDirectory: true)
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            for (index, frequency) in [330, 440, 550].enumerated() {
                let file = root.appendingPathComponent("0\(index + 1) Tone \(frequency).flac")
                try MediaFactory.run("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                                                "-i", "sine=frequency=\(frequency):duration=40:sample_rate=44100",
                                                "-ac", "2", "-c:a", "flac", "-metadata", "title=Tone \(frequency)",
                                                "-metadata", "artist=Restart", "-metadata", "genre=\(genre)", file.path])
            }
            return root
        }
    }

    @Test("SIGHUP: the same mhz process serves again on the same socket, a request meanwhile is answered, and mpv plays on past the restart without a failed reload")
    func reloadKeepsPlaying() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-live-reload")
        defer { home.remove() }
        let music = try await Self.library
        let data = home.path("data")
        let server = try BuiltMhz(["serve", "--data-dir", data.path, "--port", "0", "--library", music.path], home: home.url)
        defer { server.kill() }
        let base = try await server.servedURL()
        let channel = try await Self.channel(base)
        let player = try HeadlessMpv(playing: base.appendingPathComponent("live/\(channel).m3u8"))
        defer { player.kill() }
        try await player.waitUntil("mpv playing the channel") { !$0.segmentRequests.isEmpty }
        let pid = server.pid

        server.signal(SIGHUP)
        // Asked again and again, each on a connection of its own, from the signal until the
        // station says it serves again: every one answered, none refused or reset.
        let port = try #require(base.port)
        var statuses: [Int] = []
        do {
            try await waitUntil("the station serving again", within: .seconds(60)) {
                guard Self.servingLines(server).count < 2 else { return true }
                // Answered once the restarted station takes it from the kept socket's queue,
                // which a busy machine can take far longer than an ordinary answer to reach.
                statuses.append(try await RawHTTP.get(port: port, target: "/live/\(channel)/64.m3u8", silence: 60).status)
                return false
            }
        } catch TestSupportError.timeout(let what) {
            throw TestSupportError.timeout("\(what): \(server.stderr)")
        }
        #expect(!statuses.isEmpty && statuses.allSatisfy { $0 == 200 }, "\(statuses)")
        // What is listed now was published before the restarted station took requests;
        // a segment after it is the restarted station's.
        let restartedAfter = try #require(Self.segments(data.appendingPathComponent("station"), channel).last).sequence
        try await player.waitUntil("mpv fetching a segment of the restarted station") { mpv in
            mpv.segmentRequests.contains { $0.sequence > restartedAfter }
        }
        #expect(player.isRunning)
        #expect(!player.text.contains("Failed to reload playlist"))
        // mpv asked for the segments of the variant it plays in turn, none skipped (the
        // first it had read to find the streams may be asked for again).
        let variant = try #require(player.segmentRequests.last).variant
        let played = player.segmentRequests.filter { $0.variant == variant }.map(\.sequence)
        #expect(zip(played, played.dropFirst()).allSatisfy { $1 == $0 || $1 == $0 + 1 }, "\(played)")
        // The process re-executed itself: it never ended, and said so twice on one URL.
        #expect(server.isRunning && server.pid == pid)
        let serving = "mhz: serving 3 songs from \(music.path) on \(base.absoluteString)"
        #expect(Self.servingLines(server) == [serving, serving], "\(server.stderr)")

        await player.stop()
        server.terminate()
        #expect(try await server.exit() == 0)
    }

    @Test("mhz serve serves the listening socket handed over as systemd's socket activation does (descriptor 3, LISTEN_FDS, LISTEN_PID), not binding --host and --port")
    func socketActivation() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-serve-activated")
        defer { home.remove() }
        // A socket bound and listening at descriptor 3 of the process that becomes mhz (it
        // keeps its id through each exec), as systemd leaves it; --host names an address
        // of no interface here, so binding it would fail.
        let activate = """
            import os, socket, sys
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(64)
            os.dup2(s.fileno(), 3); os.set_inheritable(3, True)
            os.environ["LISTEN_FDS"] = "1"; os.environ["LISTEN_PID"] = str(os.getpid())
            print(s.getsockname()[1], file=sys.stderr, flush=True)
            os.execv(sys.argv[1], sys.argv[1:])
            """
        let server = try BuiltMhz(["serve", "--data-dir", home.path("data").path, "--host", "192.0.2.1", "--port", "7650"],
                                  home: home.url, launcher: ["/usr/bin/python3", "-c", activate])
        defer { server.kill() }
        let base = try await server.servedURL()
        let port = try #require(server.stderr.split(separator: "\n").first.flatMap { Int($0) })
        #expect(base.absoluteString == "http://127.0.0.1:\(port)")
        #expect(try await HTTPFetch.get(base, "/j/app/radio/channels").status == 200)
        server.terminate()
        #expect(try await server.exit() == 0)
    }

    @Test("a station stopped and started again goes on from the last segment: the next sequence, the clock, the song on the air from where it was; within a run's prefill without a break and the song not aired twice")
    func stopAndStart() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-live-resume")
        defer { data.remove() }
        // 4-second segments: a run's first three are dated back 12 s, more than a restart
        // takes but on a very busy machine.
        let first = try await Self.station(data: data.url, segment: .seconds(4))
        let base = try await first.start()
        let channel = try await Self.channel(base)
        try await withCleanup {
            _ = try await LiveFixtures.waitFor(base, channel, "the first segments") { $0.entries.count >= 3 }
        } cleanup: {
            await first.stop()
        }
        let station = data.url
        let last = try #require(Self.segments(station, channel).last)
        let airedBefore = try Self.aired(station, channel)

        let second = try await Self.station(data: data.url, segment: .seconds(4))
        let again = try await second.start()
        try await withCleanup {
            _ = try await LiveFixtures.waitFor(again, channel, "the next run") { list in
                list.entries.contains { $0.sequence > last.sequence }
            }
        } cleanup: {
            await second.stop()
        }
        try Self.expectContinued(station, channel, after: last, aired: airedBefore)
    }

    @Test("after a kill -9, mhz serve started again goes on from the last segment written: the next sequence, the clock, the song on the air from where it was; a discontinuity and the song aired again only when time went by")
    func killAndStart() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-live-kill")
        defer { home.remove() }
        let music = try await Self.library
        let data = home.path("data")
        let arguments = ["serve", "--data-dir", data.path, "--port", "0", "--library", music.path]
        let killed = try BuiltMhz(arguments, home: home.url)
        defer { killed.kill() }
        let base = try await killed.servedURL()
        let channel = try await Self.channel(base)
        _ = try await LiveFixtures.waitFor(base, channel, "three segments") { $0.entries.count >= 3 }
        killed.kill()
        let station = data.appendingPathComponent("station")
        let last = try #require(Self.segments(station, channel).last)
        let airedBefore = try Self.aired(station, channel)

        let started = try BuiltMhz(arguments, home: home.url)
        defer { started.kill() }
        let again = try await started.servedURL()
        _ = try await LiveFixtures.waitFor(again, channel, "the next run") { list in
            list.entries.contains { $0.sequence > last.sequence }
        }
        started.terminate()
        #expect(try await started.exit() == 0)
        try Self.expectContinued(station, channel, after: last, aired: airedBefore)
    }

    // MARK: - Helpers

    /// What the channel's archive in `station` holds after a restart that followed `last`
    /// (and `aired`, the songs aired up to it): the next segment goes on from it. The
    /// song under way at `last`'s end is under way at the next one's, as far into it as
    /// the samples between the two ends say (less the new encoder's priming, a frame), and
    /// the clock runs on. A run that started the moment `last` ended has no discontinuity
    /// and airs nothing new for that song; one started later (the restart took longer than
    /// the prefill's time) has a discontinuity and airs the rest of the song anew from its
    /// start.
    private static func expectContinued(_ station: URL, _ channel: String, after last: LiveSegment,
                                        aired: [AiredRecord]) throws {
        let cue = try #require(last.cue)
        let next = try #require(segments(station, channel).first { $0.sequence == last.sequence + 1 })
        let nextCue = try #require(next.cue)
        #expect(nextCue.sid == cue.sid)
        #expect(next.title == last.title)
        #expect(cue.offset > 0)
        #expect(nextCue.clock > cue.clock && nextCue.clock - cue.clock < 5 * 44100, "\(cue) \(nextCue)")
        let expected = cue.offset + (nextCue.clock - cue.clock) * 1000 / 44100
        #expect(abs(nextCue.offset - expected) <= 30, "\(cue) \(nextCue)")

        let airedAfter = try self.aired(station, channel)
        #expect(Array(airedAfter.prefix(aired.count)) == aired)
        let added = airedAfter.dropFirst(aired.count)
        #expect(next.start >= last.end)
        if next.start == last.end {
            #expect(!next.discontinuity)
            #expect(next.era == last.era)
            #expect(!added.contains { $0.sid == cue.sid }, "\(airedAfter)")
        } else {
            #expect(next.discontinuity)
            let again = try #require(added.first)
            let song = try #require(aired.last { $0.sid == cue.sid })
            #expect(again.sid == cue.sid)
            #expect(again.length == song.length - cue.offset)
            #expect(abs(again.start - next.start) <= 30, "\(again.start) \(next.start)")
        }
    }

    /// A station over ``library`` with segments of `segment`, on `data`.
    private static func station(data: URL, segment: Duration) async throws -> Station {
        var configuration = StationConfiguration(library: try await library, fallsBackToDemo: false, dataDirectory: data,
                                                 seed: 7, rescanInterval: nil)
        configuration.analysesSound = false
        configuration.live.segmentDuration = segment
        return try await Station(configuration: configuration)
    }

    /// The id of the channel of ``genre``.
    private static func channel(_ base: URL) async throws -> String {
        let answer = try await HTTPFetch.get(base, "/j/app/radio/channels")
        let channels = try answer.jsonObject()["channels"] as? [[String: Any]] ?? []
        guard let match = channels.first(where: { $0["name"] as? String == genre }),
              let id = match["channel_id"] as? Int else { throw TestSupportError.timeout("no channel \(genre)") }
        return String(id)
    }

    /// The segments the channel's archive lists, oldest first.
    private static func segments(_ station: URL, _ channel: String) throws -> [LiveSegment] {
        try lines(station.appendingPathComponent("live/\(channel)/segments.jsonl"))
    }

    /// The songs the channel's archive lists as aired, oldest first.
    private static func aired(_ station: URL, _ channel: String) throws -> [AiredRecord] {
        try lines(station.appendingPathComponent("live/\(channel)/aired.jsonl"))
    }

    private static func lines<Value: Decodable>(_ file: URL) throws -> [Value] {
        // A line cut short by a kill is no line, as the archive reads it.
        try Data(contentsOf: file).split(separator: UInt8(ascii: "\n")).compactMap {
            try? JSONDecoder().decode(Value.self, from: Data($0))
        }
    }

    /// `mhz serve`'s "serving" lines so far.
    private static func servingLines(_ server: BuiltMhz) -> [String] {
        server.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("mhz: serving ") }
    }
}
