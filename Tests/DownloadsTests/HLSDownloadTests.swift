import Foundation
import HLSPlaylist
import HTTP
import Store
import Testing
import TestSupport
@testable import Downloads

/// HLS downloads through the real manager, fetcher, libcurl and OpenSSL, over every stream
/// `make-hls-fixture.sh` makes, served on 127.0.0.1 by a server that can misbehave: the
/// bytes of the result, the requests made, and what each failure leaves.
@Suite(.serialized)
struct HLSDownloadTests {
    let streams: HLSFixture.Streams
    let data: TemporaryDirectory
    let server: FaultyMediaServer

    init() async throws {
        streams = try await HLSFixture.streams()
        data = try TemporaryDirectory(prefix: "mhz-hls-download")
        server = try FaultyMediaServer(root: streams.folder)
    }

    func manager(_ database: MhzDatabase, concurrency: Int = 4, attempts: Int = 5) -> DownloadManager {
        TestDownloads.manager(database, directory: data.path("songs"), segmentConcurrency: concurrency,
                              segmentAttempts: attempts)
    }

    /// The bytes of files in the fixture, one after another.
    func joined(_ names: [String]) throws -> Data {
        try names.reduce(into: Data()) { $0.append(try Data(contentsOf: streams.path($1))) }
    }

    /// The six clear 128 kbit/s segments: what every AES-128 variant decrypts to.
    var clear128: Data { get throws { try joined((0..<6).map { String(format: "clear/a128k/seg%03d.ts", $0) }) } }
    /// The fMP4 variant: its init segment, then its six segments.
    var fmp4: Data { get throws { try joined(["fmp4/init.mp4"] + (0..<6).map { String(format: "fmp4/seg%03d.m4s", $0) }) } }

    /// Downloads `playlist` with a fresh manager and returns the settled task.
    func download(_ playlist: String, quality: String? = nil, database: MhzDatabase? = nil) async throws -> DownloadTask {
        let database = try database ?? MhzDatabase(path: data.path("mhz-\(UUID().uuidString).sqlite"))
        let manager = manager(database)
        try await manager.start()
        let task = try await manager.add(DownloadRequest(url: server.url(playlist), title: playlist,
                                                         quality: quality.flatMap(VariantQuality.init)))
        await manager.waitUntilSettled([task.id])
        let settled = try #require(await manager.task(task.id))
        await manager.shutdown()
        return settled
    }

    /// Decodes `path` with ffmpeg to nowhere and returns its error output and duration.
    func decode(_ path: String) async throws -> (errors: String, seconds: Double) {
        let errors = try await Tool.output("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "null", "-"],
                                           mergingErrors: true).text
        let seconds = try await Tool.output("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration",
                                                                 "-of", "csv=p=0", path], mergingErrors: true).text
        return (errors, Double(seconds.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0)
    }

    @Test(arguments: [
        ("clear/a128k/index.m3u8", "ts"), ("aes-explicit-iv/index.m3u8", "ts"), ("aes-implicit-iv/index.m3u8", "ts"),
        ("aes-key-rotation/index.m3u8", "ts"), ("byterange/index.m3u8", "ts"), ("fmp4/index.m3u8", "m4a"),
        ("aes-fmp4-clear-map/index.m3u8", "m4a"),
    ])
    func everyGeneratedStreamBecomesOneClearFileThatDecodes(playlist: String, container: String) async throws {
        let database = try MhzDatabase(path: data.path("mhz.sqlite"))
        let manager = manager(database)
        try await manager.start()
        let task = try await manager.add(DownloadRequest(url: server.url(playlist), title: "Tone", artist: "Sine",
                                                         fileExtension: container))
        #expect(task.record.kind == .hls)
        await manager.waitUntilSettled([task.id])
        let settled = try #require(await manager.task(task.id))
        await manager.shutdown()
        #expect(settled.state == .completed, "\(settled.state)")
        let path = settled.record.path
        #expect(path == data.path("songs/Sine - Tone.\(container)").path)
        let expected: Data
        switch playlist {
        case "byterange/index.m3u8": expected = try Data(contentsOf: streams.path("byterange/audio.ts"))
        case let name where name.contains("fmp4"): expected = try fmp4
        default: expected = try clear128
        }
        // Encrypted variants decrypt to exactly the clear variant made from the same media.
        #expect(FileManager.default.contents(atPath: path) == expected)
        let decoded = try await decode(path)
        #expect(decoded.errors.isEmpty, "\(decoded.errors)")
        #expect(abs(decoded.seconds - streams.duration) < 0.2, "\(decoded.seconds)")
        // Nothing but the file is left: no partial file, no segment pieces, no progress row.
        #expect(try FileManager.default.contentsOfDirectory(atPath: data.path("songs").path) == [(path as NSString).lastPathComponent])
        #expect(try database.hlsProgress(downloadID: task.id) == nil)
        // Each key once, each segment once.
        let keys = server.requests.filter { $0.path.hasSuffix(".key") }.map(\.path)
        #expect(keys.count == Set(keys).count, "\(keys)")
        let pieces = server.requests.filter { !$0.path.hasSuffix(".m3u8") && !$0.path.hasSuffix(".key") }
        #expect(pieces.count == (playlist.contains("fmp4") ? 7 : 6), "\(pieces.map(\.path))")
    }

    @Test func theGeneratedPlaylistsReadAsTheirMakerSays() async throws {
        let planner = HLSPlanner(http: HTTPClient(configuration: .init(retry: .never)))
        let master = try await planner.plan(URL(string: server.url("clear/master.m3u8"))!, quality: .kbps(128), audioLanguage: nil)
        #expect(master.master?.variants.map { "\($0.bandwidth)" }.joined(separator: " ") == streams.expected["MASTER_BANDWIDTHS"])
        #expect(master.mediaURL.absoluteString == server.url("clear/a128k/index.m3u8"))
        #expect(master.media.segments.count == Int(streams.expected["SEGMENTS"] ?? ""))
        #expect(String(format: "%.6f", master.media.totalDuration) == streams.expected["EXTINF_SUM_128k"])
        #expect(!master.media.isLive && master.fileExtension == "ts")
        let implicit = try await planner.plan(URL(string: server.url("aes-implicit-iv/index.m3u8"))!, quality: .best, audioLanguage: nil)
        let first = Int(streams.expected["MEDIA_SEQ_IMPLICIT"] ?? "") ?? -1
        #expect(implicit.media.segments.map { $0.key?.ivHex } == (first..<(first + 6)).map { String(format: "%032x", $0) })
        let rotation = try await planner.plan(URL(string: server.url("aes-key-rotation/index.m3u8"))!, quality: .best, audioLanguage: nil)
        #expect(rotation.media.segments.map { $0.key?.ivHex }
            == Array(repeating: streams.expected["IV_HEX"], count: 3) + Array(repeating: streams.expected["IV2_HEX"], count: 3))
        #expect(rotation.media.segments.map { $0.key?.uri?.lastPathComponent } == ["k1.key", "k1.key", "k1.key", "k2.key", "k2.key", "k2.key"])
        let fmp4 = try await planner.plan(URL(string: server.url("aes-fmp4-clear-map/index.m3u8"))!, quality: .best, audioLanguage: nil)
        // The clear MAP takes no sequence number: the first segment's IV is 7794's.
        #expect(fmp4.media.segments.first?.map?.key == nil && fmp4.media.segments.first?.key?.ivHex == String(format: "%032x", first))
        #expect(fmp4.fileExtension == "m4a")
        // Playlists only: no media was fetched to plan.
        #expect(server.requests.allSatisfy { $0.path.hasSuffix(".m3u8") })
    }

    @Test func theMasterPlaylistsVariantIsChosenByQuality() async throws {
        // BANDWIDTH 70400/140800/211200 are 64/128/192 kbit/s with ffmpeg's 10 % overhead.
        for (quality, variant) in [("128", "a128k"), ("129", "a192k"), ("64", "a64k"), ("best", "a192k"), ("worst", "a64k")] {
            let before = server.requests.count
            let task = try await download("clear/master.m3u8", quality: quality)
            #expect(task.state == .completed)
            let segments = server.requests.dropFirst(before).map(\.path).filter { $0.hasSuffix(".ts") }
            #expect(segments.count == 6 && segments.allSatisfy { $0.hasPrefix("/clear/\(variant)/") }, "\(quality): \(segments)")
            let expected = try joined((0..<6).map { String(format: "clear/\(variant)/seg%03d.ts", $0) })
            #expect(FileManager.default.contents(atPath: task.record.path) == expected)
        }
    }

    @Test func aPlanMadeBeforeTheTaskIsFollowedWithoutReadingThePlaylistsAgain() async throws {
        let planner = HLSPlanner(http: HTTPClient(configuration: .init(retry: .never)))
        let plan = try await planner.plan(URL(string: server.url("clear/master.m3u8"))!, quality: .kbps(128), audioLanguage: nil)
        let database = try MhzDatabase(path: data.path("mhz.sqlite"))
        let manager = manager(database)
        try await manager.start()
        let task = try await manager.add(DownloadRequest(url: server.url("clear/master.m3u8"), title: "Planned",
                                                         quality: .kbps(128), plan: plan))
        await manager.waitUntilSettled([task.id])
        let settled = try #require(await manager.task(task.id))
        await manager.shutdown()
        #expect(settled.state == .completed, "\(settled.state)")
        #expect(settled.record.path == data.path("songs/Planned.ts").path)
        #expect(settled.record.quality == "128")
        #expect(FileManager.default.contents(atPath: settled.record.path) == (try clear128))
        // The master and the variant's playlist were read once each: by the planner.
        #expect(server.requests(to: "/clear/master.m3u8").count == 1)
        #expect(server.requests(to: "/clear/a128k/index.m3u8").count == 1)
    }

    @Test func anAudioRenditionIsDownloadedInItsLanguage() async throws {
        // A master whose variants carry video and whose audio is in renditions of its own.
        let folder = streams.path("alternate")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("""
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",LANGUAGE="eng",NAME="English",DEFAULT=YES,URI="../clear/a64k/index.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",LANGUAGE="fre",NAME="Français",URI="../clear/a192k/index.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.42e01e,mp4a.40.2",RESOLUTION=640x360,AUDIO="aud"
            video/index.m3u8

            """.utf8).write(to: folder.appendingPathComponent("master.m3u8"))
        let database = try MhzDatabase(path: data.path("mhz.sqlite"))
        let manager = manager(database)
        try await manager.start()
        let french = try await manager.add(DownloadRequest(url: server.url("alternate/master.m3u8"), title: "French",
                                                           audioLanguage: "fr"))
        let english = try await manager.add(DownloadRequest(url: server.url("alternate/master.m3u8?default"), title: "English"))
        await manager.waitUntilSettled([french.id, english.id])
        let tasks = await manager.tasks()
        await manager.shutdown()
        #expect(tasks.map(\.state) == [.completed, .completed])
        let a192 = try joined((0..<6).map { String(format: "clear/a192k/seg%03d.ts", $0) })
        let a64 = try joined((0..<6).map { String(format: "clear/a64k/seg%03d.ts", $0) })
        #expect(FileManager.default.contents(atPath: tasks[0].record.path) == a192)
        #expect(FileManager.default.contents(atPath: tasks[1].record.path) == a64, "no language asked: the default rendition")
        #expect(server.requests(to: "/alternate/video/index.m3u8").isEmpty, "the video variant is not fetched")
    }

    @Test func aServerIgnoringRangeStillGivesExactlyTheByteRanges() async throws {
        server.script("/byterange/audio.ts") { _, _ in .ignoreRange }
        let task = try await download("byterange/index.m3u8")
        #expect(task.state == .completed)
        #expect(FileManager.default.contents(atPath: task.record.path) == (try Data(contentsOf: streams.path("byterange/audio.ts"))))
        #expect(server.requests(to: "/byterange/audio.ts").allSatisfy { $0.status == 200 })
    }

    @Test func segmentsCutShortAreContinuedByRangeAndTheFileIsExact() async throws {
        let count = Locked(0)
        for n in 0..<6 {
            // Every other first request of a segment stops after 10 000 bytes.
            server.script(String(format: "/aes-implicit-iv/seg%03d.ts", n)) { _, start in
                let k = count.withLock { $0 += 1; return $0 }
                return start == nil && k % 2 == 1 ? .cutAfter(bytes: 10_000) : .serve
            }
        }
        let task = try await download("aes-implicit-iv/index.m3u8")
        #expect(task.state == .completed, "\(task.state)")
        #expect(FileManager.default.contents(atPath: task.record.path) == (try clear128))
        let resumed = server.requests.filter { $0.path.hasPrefix("/aes-implicit-iv/seg") && $0.rangeStart != nil }
        #expect(!resumed.isEmpty && resumed.allSatisfy { $0.rangeStart == 10_000 && $0.status == 206 }, "\(server.requests)")
    }

    @Test func aSegmentRefusedWith403HasThePlaylistFetchedAgainAndGoesOn() async throws {
        let refused = Locked(false)
        // The first answer for segment 2 is 403 (a signed link that expired), then it serves.
        server.script("/clear/a128k/seg002.ts") { _, _ in
            refused.withLock { done in defer { done = true }; return done ? .serve : .status(403) }
        }
        let task = try await download("clear/a128k/index.m3u8")
        #expect(task.state == .completed, "\(task.state)")
        #expect(FileManager.default.contents(atPath: task.record.path) == (try clear128))
        #expect(server.requests(to: "/clear/a128k/index.m3u8").count == 2)
        #expect(server.requests(to: "/clear/a128k/seg002.ts").map(\.status) == [403, 200])
        // Segments 0 and 1, appended before, are not fetched again.
        #expect(server.requests(to: "/clear/a128k/seg000.ts").count == 1 && server.requests(to: "/clear/a128k/seg001.ts").count == 1)
    }

    @Test func aKeyThatIs404FailsTheTaskWithNoFile() async throws {
        server.script("/aes-explicit-iv/enc.key") { _, _ in .status(404) }
        let task = try await download("aes-explicit-iv/index.m3u8")
        #expect(task.state == .failed(.keyUnavailable(uri: server.url("aes-explicit-iv/enc.key"), status: 404)), "\(task.state)")
        #expect(!FileManager.default.fileExists(atPath: task.record.path))
    }

    @Test func aKeyThatIsAPageNotSixteenBytesIsRefused() async throws {
        server.script("/aes-implicit-iv/enc.key") { _, _ in .html }
        let task = try await download("aes-implicit-iv/index.m3u8")
        guard case .failed(.badKey(let uri, let length)) = task.state else {
            Issue.record("\(task.state)")
            return
        }
        #expect(uri == server.url("aes-implicit-iv/enc.key") && length > 16)
    }

    @Test func aSegmentThatStays404FailsTheTaskAfterItsRetriesAndKeepsWhatCameBefore() async throws {
        server.script("/clear/a128k/seg003.ts") { _, _ in .status(404) }
        let database = try MhzDatabase(path: data.path("mhz.sqlite"))
        let task = try await download("clear/a128k/index.m3u8", database: database)
        #expect(task.state == .failed(.segment(sequence: 3, reason: .httpStatus(404))), "\(task.state)")
        // No gap: the three segments before it are in the partial file, nothing after them.
        let part = FileManager.default.contents(atPath: task.record.path + ".part")
        #expect(part == (try joined((0..<3).map { String(format: "clear/a128k/seg%03d.ts", $0) })))
        #expect(try database.hlsProgress(downloadID: task.id)?.nextSequence == 3)
        // Segments 4 and 5 may have been on their way when 3 failed: how much of each reached
        // its piece depends on the scheduler; what did is kept for the retry.
        let later = [4, 5]
        var kept: [Int: Int] = [:]
        var askedBefore: [Int: Int] = [:]
        for n in later {
            let piece = DownloadFiles(task.record.path).piece(sequence: n)
            kept[n] = (try? FileManager.default.attributesOfItem(atPath: piece)[.size] as? Int) ?? 0
            askedBefore[n] = server.requests(to: String(format: "/clear/a128k/seg%03d.ts", n)).count
            #expect(askedBefore[n]! <= 1)
        }
        // Fixed on the server, a retry continues at segment 3 and fetches nothing twice.
        server.script("/clear/a128k/seg003.ts") { _, _ in .serve }
        let manager = manager(database)
        try await manager.start()
        try await manager.resume(task.id)
        await manager.waitUntilSettled([task.id])
        #expect(await manager.task(task.id)?.state == .completed)
        await manager.shutdown()
        #expect(FileManager.default.contents(atPath: task.record.path) == (try clear128))
        for n in [0, 1, 2] {
            #expect(server.requests(to: String(format: "/clear/a128k/seg%03d.ts", n)).count == 1)
        }
        // The retry asks for what its piece lacks, once: the whole segment when nothing of it
        // was kept, the rest from where the piece ends (206), or, for a whole piece, past its
        // end (416, no body).
        for n in later {
            let name = String(format: "clear/a128k/seg%03d.ts", n)
            let size = try Data(contentsOf: streams.path(name)).count
            let retried = Array(server.requests(to: "/" + name).dropFirst(askedBefore[n]!))
            let have = kept[n]!
            if have == 0 {
                #expect(retried.count == 1 && retried[0].status == 200 && retried[0].rangeStart == nil
                        && retried[0].sent == size, "\(retried)")
            } else if have < size {
                #expect(retried.count == 1 && retried[0].status == 206 && retried[0].rangeStart == have
                        && retried[0].sent == size - have, "kept \(have): \(retried)")
            } else {
                #expect(retried.count <= 1 && retried.allSatisfy { $0.status == 416 && $0.rangeStart == size && $0.sent == 0 },
                        "\(retried)")
            }
        }
    }

    @Test func aSegmentSilentAfterItsHeadersStallsAndFailsTheTaskAfterItsTriesNamingIt() async throws {
        // Segment 3's server sends its head, then nothing until mhz hangs up.
        server.script("/clear/a128k/seg003.ts") { _, _ in .silentAfterHead }
        let database = try MhzDatabase(path: data.path("mhz.sqlite"))
        let manager = TestDownloads.manager(database, directory: data.path("songs"), segmentAttempts: 3, stallTimeout: 1)
        let events = await manager.events()
        let states = Task { await events.filter { !$0.isProgress }.map(\.task.state.name).reduce(into: [String]()) { $0.append($1) } }
        try await manager.start()
        let task = try await manager.add(DownloadRequest(url: server.url("clear/a128k/index.m3u8"), title: "index"))
        await manager.waitUntilSettled([task.id])
        let settled = try #require(await manager.task(task.id))
        await manager.shutdown()
        #expect(settled.state == .failed(.segment(sequence: 3, reason: .stalled(seconds: 1))), "\(settled.state)")
        // The stall was tried three times, each asking for the whole segment, and the task
        // never waited to start over: it failed once the segment's tries were spent.
        #expect(server.requests(to: "/clear/a128k/seg003.ts").map(\.rangeStart) == [nil, nil, nil])
        #expect(await states.value == ["queued", "running", "failed"])
        // No gap: the three segments before it are appended, and a resume starts at it.
        let part = FileManager.default.contents(atPath: settled.record.path + ".part")
        #expect(part == (try joined((0..<3).map { String(format: "clear/a128k/seg%03d.ts", $0) })))
        #expect(try database.hlsProgress(downloadID: task.id)?.nextSequence == 3)
        #expect(!FileManager.default.fileExists(atPath: settled.record.path))
    }

    @Test func aStoppedDownloadResumesAtItsNextSegmentAndTheResultIsIdentical() async throws {
        // The first three segments come at once, the fourth never does (its server falls
        // silent after the head, and the first manager allows a long stall): the stop lands
        // after exactly three, however late this test's task runs.
        for n in 3..<6 {
            server.script(String(format: "/aes-key-rotation/seg%03d.ts", n)) { _, _ in .silentAfterHead }
        }
        let database = try MhzDatabase(path: data.path("mhz.sqlite"))
        let first = TestDownloads.manager(database, directory: data.path("songs"), segmentConcurrency: 1, stallTimeout: 120)
        try await first.start()
        let id = try await first.add(DownloadRequest(url: server.url("aes-key-rotation/index.m3u8"), title: "Rotation")).id
        try await waitUntil("three segments done") { (try database.hlsProgress(downloadID: id)?.segmentsDone ?? 0) >= 3 }
        await first.shutdown()
        let row = try #require(try database.hlsProgress(downloadID: id))
        #expect(row.segmentsDone == 3, "\(row)")
        let path = try #require(try database.download(id: id)).path
        // A crash after an append, before the row: bytes past the row's are cut at the resume.
        let tail = try FileHandle(forWritingTo: URL(fileURLWithPath: path + ".part"))
        try tail.seekToEnd()
        try tail.write(contentsOf: Data(repeating: 0xAB, count: 5000))
        try tail.close()
        for n in 0..<6 { server.script(String(format: "/aes-key-rotation/seg%03d.ts", n)) { _, _ in .serve } }
        let second = manager(database)
        try await second.start()
        await second.waitUntilSettled([id])
        #expect(await second.task(id)?.state == .completed)
        await second.shutdown()
        #expect(FileManager.default.contents(atPath: path) == (try clear128))
        for n in 0..<row.segmentsDone {
            let asked = server.requests(to: String(format: "/aes-key-rotation/seg%03d.ts", n))
            #expect(asked.count == 1, "segment \(n) appended before the stop was fetched again")
        }
    }

    @Test func sampleAESIsRefusedByName() async throws {
        let folder = streams.path("drm")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("""
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://key",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
            #EXTINF:4,
            seg0.ts
            #EXT-X-ENDLIST

            """.utf8).write(to: folder.appendingPathComponent("index.m3u8"))
        let task = try await download("drm/index.m3u8")
        #expect(task.state == .failed(.unsupportedEncryption(method: "SAMPLE-AES", keyFormat: "com.apple.streamingkeydelivery")))
        #expect(server.requests(to: "/drm/seg0.ts").isEmpty)
    }

    @Test func anHTMLPageInPlaceOfThePlaylistIsNotAPlaylist() async throws {
        server.script("/clear/master.m3u8") { _, _ in .html }
        let task = try await download("clear/master.m3u8")
        guard case .failed(.playlist(let url, .notAPlaylist(let first))) = task.state else {
            Issue.record("\(task.state)")
            return
        }
        #expect(url == server.url("clear/master.m3u8") && first.hasPrefix("<!DOCTYPE html>"))
    }

    @Test func aFailedPlaylistIsNamedTheMastersOrTheVariants() async throws {
        let missing = try await download("missing/index.m3u8")
        #expect(missing.state == .failed(.playlist(url: server.url("missing/index.m3u8"), reason: .httpStatus(404))),
                "\(missing.state)")
        // The master answers; the variant it names does not: the variant is the one named.
        server.script("/clear/a128k/index.m3u8") { _, _ in .status(410) }
        let variant = try await download("clear/master.m3u8", quality: "128")
        #expect(variant.state == .failed(.playlist(url: server.url("clear/a128k/index.m3u8"), reason: .httpStatus(410))),
                "\(variant.state)")
        #expect(server.requests.allSatisfy { !$0.path.hasSuffix(".ts") })
    }
}
