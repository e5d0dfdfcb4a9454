import Foundation
import TestSupport
import Testing

/// `mhz download` of HLS playlists, the real binary against a local server over the
/// streams `make-hls-fixture.sh` makes: the plan as JSON, a kill -9 mid-stream and the
/// resume, and playlists that cannot be used.
@Suite(.serialized)
struct HLSDownloadCommandTests {
    let streams: HLSFixture.Streams
    let home: TemporaryDirectory
    let server: FaultyMediaServer

    init() async throws {
        streams = try await HLSFixture.streams()
        home = try TemporaryDirectory(prefix: "mhz-hls-cli")
        server = try FaultyMediaServer(root: streams.folder)
    }

    var downloads: URL { home.path("data/downloads") }

    func mhz(_ arguments: [String]) throws -> BuiltMhz {
        let process = try BuiltMhz(arguments + ["--data-dir", home.path("data").path],
                                     environment: ["HOME": home.url.path, "XDG_CONFIG_HOME": home.path("config").path])
        process.closeInput()
        return process
    }

    @Test func thePlanListsVariantsTheChosenOneAndEverySegmentsKeyAndIV() async throws {
        let master = try mhz(["download", "--plan", "--json", "--quality", "128", server.url("master-all.m3u8")])
        #expect(try await master.exit(timeout: 30) == 0, "\(master.stderr)")
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(master.lines.joined().utf8)) as? [String: Any])
        #expect(plan["kind"] as? String == "master")
        let variants = try #require(plan["variants"] as? [[String: Any]])
        #expect(variants.map { $0["bandwidth"] as? Int } == [70400, 140800, 211200, 140800])
        #expect(variants[0]["uri"] as? String == server.url("clear/a64k/index.m3u8"))
        #expect(plan["chosen"] as? String == server.url("clear/a128k/index.m3u8"))
        #expect(plan["live"] as? Bool == false)
        let segments = try #require(plan["segments"] as? [[String: Any]])
        #expect(segments.count == 6)
        #expect(segments[0]["uri"] as? String == server.url("clear/a128k/seg000.ts"))
        #expect(segments.allSatisfy { $0["key"] is NSNull && $0["byte_range"] is NSNull })
        // No media was fetched: playlists only.
        #expect(server.requests.allSatisfy { $0.path.hasSuffix(".m3u8") }, "\(server.requests.map(\.path))")

        // A media playlist with implicit IVs: each segment's IV is its sequence number.
        let implicit = try mhz(["download", "--plan", "--json", server.url("aes-implicit-iv/index.m3u8")])
        #expect(try await implicit.exit(timeout: 30) == 0)
        let media = try #require(try JSONSerialization.jsonObject(with: Data(implicit.lines.joined().utf8)) as? [String: Any])
        #expect(media["kind"] as? String == "media" && media["chosen"] is NSNull)
        let keys = try #require(media["segments"] as? [[String: Any]]).map { $0["key"] as? [String: Any] }
        #expect(keys.map { $0?["iv"] as? String } == (7794..<7800).map { String(format: "%032x", $0) })
        #expect(keys.allSatisfy { $0?["method"] as? String == "AES-128" && $0?["uri"] as? String == server.url("aes-implicit-iv/enc.key") })
        let sequences = try #require(media["segments"] as? [[String: Any]]).map { $0["sequence"] as? Int }
        #expect(sequences == (7794..<7800).map { $0 })
    }

    @Test func theDefaultAudioInsideTheVariantIsDownloadedNotTheAlternateAndThePlanSaysWhy() async throws {
        // Modelled on Apple's bipbop "advanced" master: the default audio has no URI (it is
        // in the variants), the AUTOSELECT=NO alternate (a sine wave there) has its own.
        let folder = streams.path("bipbop")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("""
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="bipbop_audio",LANGUAGE="eng",NAME="BipBop Audio 1",AUTOSELECT=YES,DEFAULT=YES
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="bipbop_audio",LANGUAGE="eng",NAME="BipBop Audio 2",AUTOSELECT=NO,DEFAULT=NO,URI="../byterange/index.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=263851,CODECS="mp4a.40.2, avc1.4d400d",RESOLUTION=416x234,AUDIO="bipbop_audio"
            ../clear/a128k/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=41457,CODECS="mp4a.40.2",AUDIO="bipbop_audio"
            ../clear/a64k/index.m3u8

            """.utf8).write(to: folder.appendingPathComponent("master.m3u8"))
        let planned = try mhz(["download", "--plan", "--json", server.url("bipbop/master.m3u8")])
        #expect(try await planned.exit(timeout: 30) == 0, "\(planned.stderr)")
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(planned.lines.joined().utf8)) as? [String: Any])
        #expect(plan["chosen"] as? String == server.url("clear/a64k/index.m3u8"))
        let audio = try #require(plan["audio"] as? [String: Any])
        #expect(audio["source"] as? String == "variant" && audio["reason"] as? String == "default-in-variant")
        #expect(audio["why"] as? String == "the default rendition \"BipBop Audio 1\" has no URI: its audio is in the variant")
        let rendition = try #require(audio["rendition"] as? [String: Any])
        #expect(rendition["name"] as? String == "BipBop Audio 1" && rendition["uri"] is NSNull && rendition["default"] as? Bool == true)

        // Asked for by name, the alternate's own playlist is the one.
        let alternate = try mhz(["download", "--plan", "--json", "--audio-language", "BipBop Audio 2", server.url("bipbop/master.m3u8")])
        #expect(try await alternate.exit(timeout: 30) == 0)
        let other = try #require(try JSONSerialization.jsonObject(with: Data(alternate.lines.joined().utf8)) as? [String: Any])
        #expect(other["chosen"] as? String == server.url("byterange/index.m3u8"))
        #expect((other["audio"] as? [String: Any])?["source"] as? String == "rendition")

        let run = try mhz(["download", server.url("bipbop/master.m3u8")])
        #expect(try await run.exit(timeout: 60) == 0, "\(run.stderr)")
        let a64 = try (0..<6).reduce(into: Data()) {
            $0.append(try Data(contentsOf: streams.path(String(format: "clear/a64k/seg%03d.ts", $1))))
        }
        #expect(FileManager.default.contents(atPath: downloads.appendingPathComponent("bipbop.ts").path) == a64)
        #expect(server.requests.allSatisfy { !$0.path.hasPrefix("/byterange/") || $0.path.hasSuffix(".m3u8") },
                "the alternate's media is never fetched: \(server.requests.map(\.path))")
    }

    @Test func killedMidStreamItResumesAtTheNextSegmentAndTheFileIsIdentical() async throws {
        for n in 0..<6 {
            // ~65 kB each, four at once: the first four at once, the last two never past
            // their heads, so the kill lands between them however busy the machine.
            let reply: FaultyMediaServer.Reply = n < 4 ? .serve : .silentAfterHead
            server.script(String(format: "/aes-explicit-iv/seg%03d.ts", n)) { _, _ in reply }
        }
        let first = try mhz(["download", "--json", server.url("aes-explicit-iv/index.m3u8")])
        try await first.waitFor("download", timeout: 60) { ($0.number("bytes") ?? 0) > 60_000 }
        first.signal(SIGKILL)
        _ = try await first.exit()
        let file = downloads.appendingPathComponent("aes-explicit-iv.ts")
        #expect(!FileManager.default.fileExists(atPath: file.path))
        for n in 0..<6 { server.script(String(format: "/aes-explicit-iv/seg%03d.ts", n)) { _, _ in .serve } }

        let second = try mhz(["download", "--json", server.url("aes-explicit-iv/index.m3u8")])
        #expect(try await second.exit(timeout: 60) == 0, "\(second.stderr)")
        let clear = try (0..<6).reduce(into: Data()) {
            $0.append(try Data(contentsOf: streams.path(String(format: "clear/a128k/seg%03d.ts", $1))))
        }
        #expect(FileManager.default.contents(atPath: file.path) == clear)
        #expect(try FileManager.default.contentsOfDirectory(atPath: downloads.path) == ["aes-explicit-iv.ts"])
        // The segments appended before the kill (the bytes the last progress event counted,
        // segment by segment) are not fetched again. Segments still in flight then (four
        // run at once, and under load more than one may have finished unappended) may be.
        let reported = first.events.filter { $0.name == "download" }.compactMap { $0.number("bytes") }.max() ?? 0
        var appended = 0, covered = 0
        while appended < 6 {
            let size = try Data(contentsOf: streams.path(String(format: "clear/a128k/seg%03d.ts", appended))).count
            guard covered + size <= Int(reported) else { break }
            covered += size
            appended += 1
        }
        #expect(appended >= 1, "the kill came before any segment was appended: \(reported) bytes")
        for n in 0..<appended {
            let path = String(format: "/aes-explicit-iv/seg%03d.ts", n)
            #expect(server.requests(to: path).count == 1, "\(path) was appended before the kill, then fetched again")
        }
    }

    /// Ctrl-C during a live recording with no `--duration`: the recording is finished with
    /// what it has, as a completed download, and the run ends without an error.
    @Test func ctrlCFinishesALiveRecordingWithWhatItRecorded() async throws {
        // A live playlist (no end tag) of three clear segments, in a folder of its own.
        let folder = streams.path("live-ctrl-c")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:0\n"
        for n in 0..<3 { playlist += String(format: "#EXTINF:3.98,\n../clear/a128k/seg%03d.ts\n", n) }
        try Data(playlist.utf8).write(to: folder.appendingPathComponent("index.m3u8"))
        let expected = try (0..<3).reduce(into: Data()) {
            $0.append(try Data(contentsOf: streams.path(String(format: "clear/a128k/seg%03d.ts", $1))))
        }
        let run = try mhz(["download", "--json", server.url("live-ctrl-c/index.m3u8")])
        // The three segments are in the file; the recording waits for more.
        try await run.waitFor("download", timeout: 60) { ($0.number("bytes") ?? 0) >= Double(expected.count) }
        run.signal(SIGINT)
        #expect(try await run.exit(timeout: 30) == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        let done = try #require(run.events.last { $0.name == "download" })
        #expect(done["state"] == "completed")
        let file = downloads.appendingPathComponent("live-ctrl-c.ts")
        #expect(done["path"] == file.path)
        #expect(FileManager.default.contents(atPath: file.path) == expected)
    }

    /// One Ctrl-C with a live recording and a finished playlist's download under way: the
    /// recording is finished with what it has, then the other download stops, its segments
    /// kept; no second Ctrl-C is needed.
    @Test func oneCtrlCFinishesTheRecordingAndThenStopsTheOtherDownload() async throws {
        let folder = streams.path("live-and-more")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:0\n"
        for n in 0..<3 { playlist += String(format: "#EXTINF:3.98,\n../clear/a64k/seg%03d.ts\n", n) }
        try Data(playlist.utf8).write(to: folder.appendingPathComponent("index.m3u8"))
        let live = try (0..<3).reduce(into: Data()) {
            $0.append(try Data(contentsOf: streams.path(String(format: "clear/a64k/seg%03d.ts", $1))))
        }
        // The finished playlist's segments 2 to 5 come at 2 kB/s (half a minute each).
        for n in 2..<6 {
            server.script(String(format: "/clear/a128k/seg%03d.ts", n)) { _, _ in .throttle(bytesPerSecond: 2_000) }
        }
        let segments = try (0..<2).map { try Data(contentsOf: streams.path(String(format: "clear/a128k/seg%03d.ts", $0))) }
        let recordingFile = downloads.appendingPathComponent("live-and-more.ts")
        let otherFile = downloads.appendingPathComponent("a128k.ts")
        let run = try mhz(["download", "--json", server.url("live-and-more/index.m3u8"), server.url("clear/a128k/index.m3u8")])
        // The recording has the three listed segments (and waits for more); the other has two.
        try await run.waitFor("download", timeout: 60) {
            $0["path"] == recordingFile.path && ($0.number("bytes") ?? 0) >= Double(live.count)
        }
        let other = try await run.waitFor("download", timeout: 60) {
            $0["path"] == otherFile.path && ($0.number("bytes") ?? 0) >= Double(segments[0].count + segments[1].count)
        }
        run.signal(SIGINT)
        // Ten seconds is room for a loaded machine; the other download alone would run on for
        // two minutes.
        #expect(try await run.exit(timeout: 10) == 1)
        let done = try #require(run.events.last { $0.name == "download" && $0["path"] == recordingFile.path })
        #expect(done["state"] == "completed")
        #expect(FileManager.default.contents(atPath: recordingFile.path) == live)
        let id = Int(try #require(other.event.number("id"))), title = try #require(other.event["title"])
        #expect(run.stderr == "mhz: download \(id) (\(title)): stopped (running): `mhz downloads resume \(id)` continues it\n")
        #expect(!FileManager.default.fileExists(atPath: otherFile.path))
        #expect(FileManager.default.contents(atPath: otherFile.path + ".part") == segments[0] + segments[1])
    }

    /// One SIGTERM (as `timeout` or a service manager sends) stops the download of a
    /// finished playlist, which has no recording to finish: mhz exits at once, the segments
    /// appended are kept, and the next run continues after them.
    @Test func oneSIGTERMStopsAFinishedPlaylistsDownloadAndTheNextRunContinuesIt() async throws {
        // Segments 0 and 1 come at once, the others at 2 kB/s (half a minute each): the
        // signal comes while those are on their way.
        for n in 2..<6 {
            server.script(String(format: "/clear/a128k/seg%03d.ts", n)) { _, _ in .throttle(bytesPerSecond: 2_000) }
        }
        let segments = try (0..<6).map { try Data(contentsOf: streams.path(String(format: "clear/a128k/seg%03d.ts", $0))) }
        let first = try mhz(["download", "--json", server.url("clear/a128k/index.m3u8")])
        let two = Double(segments[0].count + segments[1].count)
        let appended = try await first.waitFor("download", timeout: 60) { ($0.number("bytes") ?? 0) >= two }
        first.terminate()
        // Ten seconds is room for a loaded machine; a download that takes the signal for a
        // recording to finish runs on for minutes.
        #expect(try await first.exit(timeout: 10) == 1)
        let title = try #require(appended.event["title"])
        #expect(first.stderr == "mhz: download 1 (\(title)): stopped (running): `mhz downloads resume 1` continues it\n")
        let file = downloads.appendingPathComponent("a128k.ts")
        #expect(appended.event["path"] == file.path)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(FileManager.default.contents(atPath: file.path + ".part") == segments[0] + segments[1])

        for n in 2..<6 { server.script(String(format: "/clear/a128k/seg%03d.ts", n)) { _, _ in .serve } }
        let second = try mhz(["download", "--json", server.url("clear/a128k/index.m3u8")])
        #expect(try await second.exit(timeout: 60) == 0, "\(second.stderr)")
        #expect(FileManager.default.contents(atPath: file.path) == segments.reduce(Data(), +))
        for n in 0..<2 {
            #expect(server.requests(to: String(format: "/clear/a128k/seg%03d.ts", n)).count == 1, "segment \(n) fetched again")
        }
    }

    /// A segment whose server sends its head and then nothing stalls after
    /// `[downloads] stall_timeout`, is tried its five times, and then fails the download
    /// naming it, the segments before it kept: it never waits to start over.
    @Test func aSegmentSilentAfterItsHeadersFailsTheDownloadNamingItAfterItsTries() async throws {
        let config = home.path("config/mhz")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("[downloads]\nstall_timeout = 1\n".utf8).write(to: config.appendingPathComponent("config.toml"))
        server.script("/clear/a128k/seg002.ts") { _, _ in .silentAfterHead }
        let run = try mhz(["download", "--json", server.url("clear/a128k/index.m3u8")])
        #expect(try await run.exit(timeout: 120) == 1)
        let reason = "segment 2 sent nothing for 1 s each time it was asked: the segments before it are kept; "
            + "resume the download to try it again"
        let last = try #require(run.events.last { $0.name == "download" })
        #expect(last["state"] == "failed" && last["error"] == reason, "\(last.fields)")
        #expect(run.stderr == "mhz: download 1 (\(last["title"] ?? "")): \(reason)\n")
        let states = run.events.filter { $0.name == "download" }.compactMap { $0["state"] }
        #expect(states.enumerated().filter { $0.offset == 0 || states[$0.offset - 1] != $0.element }.map(\.element)
                == ["queued", "running", "failed"], "\(states)")
        #expect(server.requests(to: "/clear/a128k/seg002.ts").map(\.rangeStart) == Array(repeating: nil, count: 5))
        let segments = try (0..<2).map { try Data(contentsOf: streams.path(String(format: "clear/a128k/seg%03d.ts", $0))) }
        #expect(FileManager.default.contents(atPath: downloads.appendingPathComponent("a128k.ts.part").path)
                == segments[0] + segments[1])
    }

    @Test func withHLSAPlaylistWhosePathSaysNothingIsDownloadedAsAStream() async throws {
        try FileManager.default.copyItem(at: streams.path("aes-implicit-iv/index.m3u8"), to: streams.path("aes-implicit-iv/list"))
        defer { try? FileManager.default.removeItem(at: streams.path("aes-implicit-iv/list")) }
        let run = try mhz(["download", "--hls", server.url("aes-implicit-iv/list")])
        #expect(try await run.exit(timeout: 60) == 0, "\(run.stderr)")
        let clear = try (0..<6).reduce(into: Data()) {
            $0.append(try Data(contentsOf: streams.path(String(format: "clear/a128k/seg%03d.ts", $1))))
        }
        #expect(FileManager.default.contents(atPath: downloads.appendingPathComponent("list.ts").path) == clear)

        // It joins the offline channel like any download, and mpv plays the joined file.
        let offline = try BuiltMhz(["--headless", "--audio-output", "null", "--channel", "offline",
                                                 "--data-dir", home.path("data").path],
                                     environment: ["HOME": home.url.path, "XDG_CONFIG_HOME": home.path("config").path])
        let playing = try await offline.waitFor("playing", timeout: 30)
        #expect(playing.event["title"] == "list" && playing.event["channel"] == "offline", "\(playing.event.fields)")
        // Asked until the position moves: the file decodes, and its length is the stream's.
        let moving = try await offline.status(after: playing.index + 1, within: .seconds(30)) {
            ($0.number("position") ?? 0) > 0.5
        }
        #expect(abs((moving.event.number("duration") ?? 0) - streams.duration) < 0.5, "\(moving.event.fields)")
        offline.send("quit")
        #expect(try await offline.exit() == 0)
    }

    @Test func aPlaylistThatCannotBeUsedFailsInOneLineWithNoTask() async throws {
        server.script("/clear/master.m3u8") { _, _ in .html }
        let page = try mhz(["download", server.url("clear/master.m3u8")])
        #expect(try await page.exit(timeout: 30) == 1)
        let line = page.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!line.contains("\n") && line.contains("not an HLS playlist"), "\(line)")
        let plan = try mhz(["download", "--plan", server.url("missing/index.m3u8")])
        #expect(try await plan.exit(timeout: 30) == 1)
        #expect(plan.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            == "mhz: the playlist \(server.url("missing/index.m3u8")) is gone (HTTP 404): check the URL, or get a new link to the stream",
            "\(plan.stderr)")
        let list = try mhz(["downloads", "--json"])
        #expect(try await list.exit(timeout: 30) == 0)
        #expect(list.lines.isEmpty, "\(list.lines)")
    }
}
