import Adapters
import CTagLib
import CTagLibPictures
import Foundation
import HTTP
import Store
import Testing
import TestSupport
@testable import Downloads

/// The real fetcher against a real local server: the exact requests, the bytes on disk,
/// and a clear reason for each way a download goes wrong.
@Suite(.serialized)
struct SongFetcherTests {
    let served: TemporaryDirectory
    let target: TemporaryDirectory
    let server: FaultyMediaServer
    let song: Data

    init() throws {
        served = try TemporaryDirectory(prefix: "mhz-fetch-served")
        target = try TemporaryDirectory(prefix: "mhz-fetch-target")
        try MediaFactory.tone(at: served.path("song.mp3"), seconds: 6)
        song = try Data(contentsOf: served.path("song.mp3"))
        server = try FaultyMediaServer(root: served.url)
    }

    func record(_ name: String = "song.mp3", sha256: String? = nil, path: String? = nil) -> DownloadRecord {
        var record = DownloadRecord(url: server.url(name), title: "Tone", artist: "Sine Wave", album: "Tests",
                                    year: "2026", sid: "42", station: "test", sha256: sha256,
                                    path: path ?? target.path("Sine Wave - Tone.mp3").path)
        record.id = 1
        return record
    }

    /// The fetcher with the tagger `mhz` gives it (TagLib, through the music library).
    func fetcher(stall: Double = 5) -> SongFetcher {
        SongFetcher(http: HTTPClient(configuration: HTTPConfiguration(retry: .never)), stallTimeout: stall,
                    tagger: TagLibSongTagger())
    }

    func onDisk(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test func aPlainGETThenTheFileIsVerifiedTaggedAndInPlace() async throws {
        try MediaFactory.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=red:s=16x16",
                                        "-frames:v", "1", served.path("cover.jpg").path])
        var record = record(sha256: FileDigest.sha256(path: served.path("song.mp3").path))
        record.coverURL = server.url("cover.jpg")
        let outcome = await fetcher().fetch(record) { _, _ in }
        let final = try #require(onDisk(record.path))
        #expect(outcome == .completed(bytes: Int64(final.count)))
        #expect(server.requests(to: "/song.mp3").map(\.rangeStart) == [nil])
        #expect(!FileManager.default.fileExists(atPath: record.path + ".part"))
        // Tagging rewrote the header only: the audio frames are the served ones.
        #expect(final.count >= song.count)
        let tags = try #require(Self.readTags(record.path))
        #expect(tags == ["Tone", "Sine Wave", "Tests", "2026"])
        #expect(Self.readCover(record.path) == (try Data(contentsOf: served.path("cover.jpg"))))
    }

    @Test func aPlainURLsFileKeepsItsOwnBytes() async throws {
        var record = record()
        record.sid = nil
        record.station = nil
        let outcome = await fetcher().fetch(record) { _, _ in }
        #expect(outcome == .completed(bytes: Int64(song.count)))
        #expect(onDisk(record.path) == song)
    }

    @Test func aBodyCutShortIsKeptAndTheNextAttemptAsksForTheRest() async throws {
        let cut = 20_000
        server.script("/song.mp3") { _, start in start == nil ? .cutAfter(bytes: cut) : .serve }
        let record = record()
        // A stall allowance far past what a loaded machine can starve a thread for: the cut
        // is what ends this transfer, never a pause in it.
        let first = await fetcher(stall: 60).fetch(record) { _, _ in }
        #expect(first == .failed(.shortBody(got: Int64(cut), expected: Int64(song.count)), bytes: Int64(cut)))
        #expect(onDisk(record.path + ".part") == song.prefix(cut))
        #expect(!FileManager.default.fileExists(atPath: record.path))
        let second = await fetcher(stall: 60).fetch(record) { _, _ in }
        guard case .completed = second else { Issue.record("\(second)"); return }
        // The server records a request when its answer ends: the cut one may be recorded
        // after the second, so they are compared in the order they were asked.
        try await waitUntil("both requests recorded") { server.requests(to: "/song.mp3").count >= 2 }
        let requests = server.requests(to: "/song.mp3").sorted { ($0.rangeStart ?? -1) < ($1.rangeStart ?? -1) }
        #expect(requests.map(\.rangeStart) == [nil, cut])
        #expect(requests.map(\.status) == [200, 206])
        #expect(requests[1].sent == song.count - cut, "the bytes on disk were not fetched again")
        #expect(Self.audio(onDisk(record.path)) == Self.audio(song))
    }

    @Test func aServerThatIgnoresRangeRestartsTheFileFromByteZero() async throws {
        let record = record()
        FileManager.default.createFile(atPath: record.path + ".part", contents: Data(repeating: 0xEE, count: 5000))
        server.script("/song.mp3") { _, _ in .ignoreRange }
        let outcome = await fetcher().fetch(record) { _, _ in }
        guard case .completed = outcome else { Issue.record("\(outcome)"); return }
        #expect(server.requests(to: "/song.mp3").map(\.rangeStart) == [5000])
        #expect(Self.audio(onDisk(record.path)) == Self.audio(song), "nothing of the old bytes is left")
    }

    @Test func aFileWhollyOnDiskButNotYetInPlaceIsFinishedOnA416() async throws {
        // Stopped after its last byte arrived, before it was checked and renamed.
        let record = record(sha256: FileDigest.sha256(path: served.path("song.mp3").path))
        FileManager.default.createFile(atPath: record.path + ".part", contents: song)
        let outcome = await fetcher().fetch(record) { _, _ in }
        guard case .completed = outcome else { Issue.record("\(outcome)"); return }
        // The server records a request when its answer has ended, which can be after the
        // client has read the 416 and finished.
        _ = await eventually { !server.requests(to: "/song.mp3").isEmpty }
        #expect(server.requests(to: "/song.mp3").map(\.status) == [416])
        #expect(Self.audio(onDisk(record.path)) == Self.audio(song))
    }

    @Test func a206ForAnotherRangeWritesNothingAndStartsAgainNextTime() async throws {
        let record = record()
        let kept = song.prefix(3000)
        FileManager.default.createFile(atPath: record.path + ".part", contents: kept)
        server.script("/song.mp3") { _, _ in .misplacedRange(start: 1000) }
        let outcome = await fetcher().fetch(record) { _, _ in }
        #expect(outcome == .failed(.rangeMismatch(answered: "bytes 1000-\(song.count - 1)/\(song.count)"), bytes: 0))
        #expect(onDisk(record.path + ".part") == nil || onDisk(record.path + ".part")?.isEmpty == true)
    }

    @Test func errorsBecomeOneReasonEachAndLeaveNoFileBehind() async throws {
        server.script("/gone.mp3") { _, _ in .status(404) }
        server.script("/refused.mp3") { _, _ in .status(403) }
        server.script("/page.mp3") { _, _ in .html }
        server.script("/busy.mp3") { _, _ in .status(503) }
        let cases: [(String, DownloadError)] = [
            ("gone.mp3", .httpStatus(404)), ("refused.mp3", .httpStatus(403)),
            ("page.mp3", .notMedia(contentType: "text/html; charset=utf-8")), ("busy.mp3", .httpStatus(503)),
        ]
        for (name, reason) in cases {
            let record = record(name, path: target.path(name).path)
            #expect(await fetcher().fetch(record) { _, _ in } == .failed(reason, bytes: 0), "\(name)")
            #expect(!FileManager.default.fileExists(atPath: record.path + ".part"), "\(name)")
            #expect(!FileManager.default.fileExists(atPath: record.path), "\(name)")
        }
        #expect(DownloadError.httpStatus(503).isTransient && !DownloadError.httpStatus(404).isTransient)
    }

    @Test func aChecksumMismatchKeepsNothing() async throws {
        let record = record(sha256: String(repeating: "0", count: 64))
        let outcome = await fetcher().fetch(record) { _, _ in }
        guard case .failed(.checksumMismatch(let expected, let actual), 0) = outcome else { Issue.record("\(outcome)"); return }
        #expect(expected == String(repeating: "0", count: 64))
        #expect(actual == FileDigest.sha256(path: served.path("song.mp3").path))
        #expect(!FileManager.default.fileExists(atPath: record.path + ".part"))
        #expect(!FileManager.default.fileExists(atPath: record.path))
    }

    @Test func aServerThatHangsIsAStallAndTheBytesSoFarAreKept() async throws {
        // The server goes on after half a minute: a fetch that waited for it would complete
        // instead of failing, however slowly a busy machine ran this one.
        server.script("/song.mp3") { _, _ in .stallAfter(bytes: 10_000, seconds: 30) }
        let record = record()
        let started = ContinuousClock.now
        let outcome = await fetcher(stall: 1).fetch(record) { _, _ in }
        #expect(outcome == .failed(.stalled(seconds: 1), bytes: 10_000))
        #expect(ContinuousClock.now - started < .seconds(25), "gave up before the server went on")
    }

    @Test func aReadOnlyDirectoryIsNotWritable() async throws {
        let locked = try ReadOnlyDirectory(inside: target)
        defer { locked.release() }
        let record = record(path: locked.url.appendingPathComponent("sub/A - B.mp3").path)
        let outcome = await fetcher().fetch(record) { _, _ in }
        #expect(outcome == .failed(.notWritable(path: locked.url.appendingPathComponent("sub").path), bytes: 0))
        #expect(server.requests.isEmpty, "nothing was asked of the server")
    }

    @Test func progressCountsTheBytesOnDiskAndTheTotal() async throws {
        let record = record()
        FileManager.default.createFile(atPath: record.path + ".part", contents: song.prefix(1000))
        let seen = Locked<[(Int64, Int64?)]>([])
        _ = await fetcher().fetch(record) { bytes, total in seen.withLock { $0.append((bytes, total)) } }
        let ticks = seen.withLock { $0 }
        #expect(ticks.first.map { $0.0 } == 1000)
        #expect(ticks.last.map { $0.0 } == Int64(song.count))
        #expect(ticks.last.flatMap { $0.1 } == Int64(song.count))
    }

    /// The MPEG audio frames after any ID3v2 tag, to compare files before and after tagging.
    static func audio(_ data: Data?) -> Data? {
        guard let data, data.count > 10 else { return data }
        guard data.prefix(3) == Data("ID3".utf8) else { return data }
        let size = data[6...9].reduce(0) { ($0 << 7) | Int($1 & 0x7F) }
        let footer = data[5] & 0x10 != 0 ? 10 : 0
        var audio = data.dropFirst(10 + size + footer)
        // TagLib may leave padding zeros in front of the first frame, and writes an ID3v1
        // tag (128 bytes from "TAG") at the end.
        while audio.first == 0 { audio = audio.dropFirst() }
        if audio.count > 128, audio.suffix(128).prefix(3) == Data("TAG".utf8) { audio = audio.dropLast(128) }
        return Data(audio)
    }

    /// The embedded front cover, as TagLib reads it back.
    static func readCover(_ path: String) -> Data? {
        guard let file = taglib_file_new(path) else { return nil }
        defer { taglib_file_free(file) }
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard mhz_taglib_front_cover(UnsafeMutableRawPointer(file), &bytes, &size) == 1, let bytes else { return nil }
        defer { free(bytes) }
        return Data(bytes: bytes, count: size)
    }

    /// Title, artist, album and year as TagLib reads them back.
    static func readTags(_ path: String) -> [String]? {
        taglib_set_strings_unicode(1)
        taglib_set_string_management_enabled(0)
        guard let file = taglib_file_new(path) else { return nil }
        defer { taglib_file_free(file) }
        guard let tag = taglib_file_tag(file) else { return nil }
        func text(_ get: (UnsafePointer<TagLib_Tag>?) -> UnsafeMutablePointer<CChar>?) -> String {
            guard let raw = get(tag) else { return "" }
            defer { taglib_free(raw) }
            return String(cString: raw)
        }
        return [text(taglib_tag_title), text(taglib_tag_artist), text(taglib_tag_album), String(taglib_tag_year(tag))]
    }
}

extension SongFetcher {
    /// Fetches a song's file (no plan: that is for HLS streams).
    func fetch(_ record: DownloadRecord, progress: @escaping @Sendable (Int64, Int64?) -> Void) async -> TransferOutcome {
        await fetch(record, plan: nil, progress: progress)
    }
}

/// A directory nobody may write to, root included: immutable (`chattr +i`) when the tests
/// run as root, which permissions do not stop; mode 0555 otherwise.
struct ReadOnlyDirectory {
    let url: URL
    private let asRoot: Bool

    init(inside parent: TemporaryDirectory) throws {
        url = parent.path("locked")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        asRoot = getuid() == 0
        if asRoot {
            try MediaFactory.run("chattr", ["+i", url.path])
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: url.path)
        }
    }

    /// Makes it writable again, so the temporary directory can be removed.
    func release() {
        if asRoot {
            try? MediaFactory.run("chattr", ["-i", url.path])
        } else {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }
    }
}
