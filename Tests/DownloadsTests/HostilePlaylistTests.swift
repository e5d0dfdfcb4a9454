import Foundation
import HLSPlaylist
import HTTP
import Store
import Testing
import TestSupport
@testable import Downloads

/// Playlists whose numbers once crashed `mhz download` and every later start in the same
/// data directory: an IV with full-width digits, a segment of 1e20 seconds, 1e308 seconds
/// on every segment. Planning refuses each with its line; a task left queued with one
/// fails with that reason, is stored failed, and the tasks beside it and every later start
/// go on. The segments are made here: MPEG-TS packets of 188 bytes, each starting with the
/// sync byte, which is all a downloader checks.
@Suite(.serialized)
struct HostilePlaylistTests {
    let data: TemporaryDirectory
    let server: FaultyMediaServer

    /// The playlists served, by name, and the line each is refused at.
    static let hostile: [(name: String, text: String, line: Int, bad: String, reason: String)] = [
        ("iv", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\",IV=0x\u{FF10}\u{FF11}\u{FF12}\u{FF13}"
            + "456789abcdef0123456789abcdef\n#EXTINF:4,\nseg0.ts\n#EXT-X-ENDLIST\n",
         3, "#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\",IV=0x\u{FF10}\u{FF11}\u{FF12}\u{FF13}456789abcdef0123456789abcdef",
         "badIV"),
        ("long", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nseg0.ts\n#EXTINF:1e20,\nseg1.ts\n#EXT-X-ENDLIST\n",
         5, "#EXTINF:1e20,", "badDuration"),
        ("huge", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:1e308,\nseg0.ts\n#EXTINF:1e308,\nseg1.ts\n#EXT-X-ENDLIST\n",
         3, "#EXTINF:1e308,", "badDuration"),
    ]

    /// Two segments of 10 packets each.
    static let segment = Data((0..<10).flatMap { n in [0x47] + [UInt8](repeating: UInt8(n), count: 187) })

    init() throws {
        data = try TemporaryDirectory(prefix: "mhz-hostile-playlist")
        let root = data.path("www")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (name, text, _, _, _) in Self.hostile { try Data(text.utf8).write(to: root.appendingPathComponent("\(name).m3u8")) }
        try Data("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nseg0.ts\n#EXTINF:4,\nseg1.ts\n#EXT-X-ENDLIST\n".utf8)
            .write(to: root.appendingPathComponent("fine.m3u8"))
        for name in ["seg0.ts", "seg1.ts"] { try Self.segment.write(to: root.appendingPathComponent(name)) }
        server = try FaultyMediaServer(root: root)
    }

    /// What a task with playlist `name` fails with.
    func refusal(_ name: String, line: Int, text: String, reason: String) -> DownloadError {
        .playlist(url: server.url("\(name).m3u8"), reason: .malformedPlaylist(line: line, text: text, reason: reason))
    }

    @Test func planningRefusesEachWithItsLine() async throws {
        let planner = HLSPlanner(http: HTTPClient(configuration: .init(retry: .never)))
        for (name, _, line, text, reason) in Self.hostile {
            let url = try #require(URL(string: server.url("\(name).m3u8")))
            await #expect(throws: refusal(name, line: line, text: text, reason: reason)) {
                try await planner.plan(url, quality: .best, audioLanguage: nil)
            }
        }
        #expect(server.requests.map(\.path) == ["/iv.m3u8", "/long.m3u8", "/huge.m3u8"])
    }

    @Test func queuedTasksWithThemFailWithTheirReasonAndTheOthersAndLaterStartsGoOn() async throws {
        let database = try MhzDatabase(path: data.path("mhz.sqlite"))
        // Left by an earlier run: one queued, one running when it was stopped, one not yet
        // tried, and a fine one after them.
        let states: [DownloadRecord.State] = [.queued, .running, .queued, .queued]
        let names = Self.hostile.map(\.name) + ["fine"]
        for (name, state) in zip(names, states) {
            _ = try database.insertDownload(DownloadRecord(kind: .hls, url: server.url("\(name).m3u8"), state: state,
                                                           title: name, artist: "", path: data.path("songs/\(name).ts").path))
        }
        try FileManager.default.createDirectory(at: data.path("songs"), withIntermediateDirectories: true)

        let first = TestDownloads.manager(database, directory: data.path("songs"), maxConcurrent: 1)
        try await first.start()
        await first.waitUntilSettled()
        let settled = await first.tasks()
        await first.shutdown()
        let expected = Self.hostile.map { DownloadState.failed(refusal($0.name, line: $0.line, text: $0.bad, reason: $0.reason)) }
        #expect(settled.map(\.state) == expected + [.completed])
        #expect(try Data(contentsOf: data.path("songs/fine.ts")) == Self.segment + Self.segment)
        // Stored failed, with the reason: the next start leaves them be.
        #expect(try database.downloads().map(\.state) == [.failed, .failed, .failed, .completed])

        let second = TestDownloads.manager(database, directory: data.path("songs"), maxConcurrent: 1)
        try await second.start()
        await second.waitUntilSettled()
        #expect(await second.tasks().map(\.state) == expected + [.completed])
        await second.shutdown()
        // Each playlist was read once, by the first start; the fine one's segments, fetched
        // several at a time, in any order.
        let asked = server.requests.map(\.path)
        #expect(asked.prefix(4) == ["/iv.m3u8", "/long.m3u8", "/huge.m3u8", "/fine.m3u8"])
        #expect(asked.dropFirst(4).sorted() == ["/seg0.ts", "/seg1.ts"])
    }
}
