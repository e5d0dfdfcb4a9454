import Foundation
import Store
import Testing
import TestSupport
@testable import Downloads

/// Recording a live HLS playlist whose window slides while mhz records (three segments
/// listed, one second each), and the recording must hold each segment once, in order, none
/// missed.
@Suite(.serialized)
struct HLSLiveRecordingTests {
    let streams: HLSFixture.Streams
    let folder: TemporaryDirectory
    let server: FaultyMediaServer

    init() async throws {
        streams = try await HLSFixture.streams()
        folder = try TemporaryDirectory(prefix: "mhz-hls-live")
        try FileManager.default.createDirectory(at: folder.path("live"), withIntermediateDirectories: true)
        // Segment N is clear segment N mod 6: distinct neighbours, so an order error shows.
        for n in 0..<60 {
            try FileManager.default.copyItem(at: streams.path(String(format: "clear/a128k/seg%03d.ts", n % 6)),
                                             to: folder.path("live/s\(n).ts"))
        }
        server = try FaultyMediaServer(root: folder.url)
    }

    /// Writes the window starting at `first` (atomically: the server never reads half).
    func publish(first: Int, ended: Bool = false) throws {
        try Self.publish(first: first, ended: ended, to: folder.path("live/index.m3u8"))
    }

    /// Writes the window starting at `first` to `file`.
    static func publish(first: Int, ended: Bool = false, to file: URL) throws {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
        for n in first..<(first + 3) { text += "#EXTINF:1.000,\ns\(n).ts\n" }
        if ended { text += "#EXT-X-ENDLIST\n" }
        try Data(text.utf8).write(to: file, options: .atomic)
    }

    func segment(_ n: Int) throws -> Data { try Data(contentsOf: folder.path("live/s\(n).ts")) }

    @Test func aSlidingWindowIsRecordedForItsDurationWithEverySegmentOnce() async throws {
        // The window slides by one segment between two reads of the playlist, however far
        // apart mhz's reloads come: every reload finds one new segment and one gone, the
        // most a live stream's clock can move between reloads that keep up with it.
        let playlist = folder.path("live/index.m3u8")
        let next = Locked(10)
        try Self.publish(first: 10, to: playlist)
        server.script("/live/index.m3u8") { _, _ in
            next.withLock { first in
                try? Self.publish(first: first, to: playlist)
                first += 1
            }
            return .serve
        }
        let database = try MhzDatabase(path: folder.path("mhz.sqlite"))
        let manager = TestDownloads.manager(database, directory: folder.path("songs"))
        try await manager.start()
        let task = try await manager.add(DownloadRequest(url: server.url("live/index.m3u8"), title: "Live",
                                                         recordSeconds: 6))
        await manager.waitUntilSettled([task.id])
        let settled = try #require(await manager.task(task.id))
        await manager.shutdown()
        #expect(settled.state == .completed, "\(settled.state)")
        // Recorded from the oldest segment listed at the start (10: the first read's window),
        // six seconds: six segments in a row, each once.
        // (Segments are fetched several at a time: the server sees them in any order.)
        let fetched = server.requests.map(\.path).filter { $0.hasSuffix(".ts") }
            .sorted { Int($0.dropFirst("/live/s".count).dropLast(3))! < Int($1.dropFirst("/live/s".count).dropLast(3))! }
        let first = try #require(fetched.first.flatMap { Int($0.dropFirst("/live/s".count).dropLast(3)) })
        #expect(first == 10)
        #expect(fetched == (first..<(first + 6)).map { "/live/s\($0).ts" }, "\(fetched)")
        let expected = try (first..<(first + 6)).reduce(into: Data()) { $0.append(try segment($1)) }
        #expect(FileManager.default.contents(atPath: settled.record.path) == expected)
        // It reloaded while it recorded, not once.
        #expect(server.requests(to: "/live/index.m3u8").count >= 3)
    }

    @Test func finishingARecordingKeepsWhatItHasAndAnEndedStreamEndsIt() async throws {
        try publish(first: 0)
        let database = try MhzDatabase(path: folder.path("mhz.sqlite"))
        let manager = TestDownloads.manager(database, directory: folder.path("songs"))
        try await manager.start()
        // No duration: records until asked to finish.
        let task = try await manager.add(DownloadRequest(url: server.url("live/index.m3u8"), title: "Until stopped"))
        let expected = try (0..<3).reduce(into: Data()) { $0.append(try segment($1)) }
        // The three listed segments are in the file (the recording then waits for more).
        try await waitUntil("the three listed segments recorded") {
            await (manager.task(task.id)?.bytes ?? 0) >= Int64(expected.count)
        }
        #expect(await manager.finishRecordings() == [task.id])
        #expect(await manager.finishRecordings().isEmpty, "asked twice: the second Ctrl-C stops instead")
        await manager.waitUntilSettled([task.id])
        let settled = try #require(await manager.task(task.id))
        #expect(settled.state == .completed, "\(settled.state)")
        #expect(FileManager.default.contents(atPath: settled.record.path) == expected)

        // A stream that ends (EXT-X-ENDLIST appears) ends its recording by itself.
        try publish(first: 20)
        let ending = try await manager.add(DownloadRequest(url: server.url("live/index.m3u8?again"), title: "Ends"))
        // The first window is read (its first segment fetched) before the stream ends.
        try await waitUntil("the first window's first segment fetched") { !server.requests(to: "/live/s20.ts").isEmpty }
        try publish(first: 21, ended: true)
        await manager.waitUntilSettled([ending.id])
        let ended = try #require(await manager.task(ending.id))
        #expect(ended.state == .completed, "\(ended.state)")
        let all = try (20..<24).reduce(into: Data()) { $0.append(try segment($1)) }
        #expect(FileManager.default.contents(atPath: ended.record.path) == all)
        await manager.shutdown()
    }

    /// One Ctrl-C finishes a recording at once, also while a segment hangs (a server silent
    /// after its head): the segments appended are the recording, the hanging one is let go.
    @Test func finishingARecordingDoesNotWaitForAHangingSegment() async throws {
        try publish(first: 0)
        server.script("/live/s1.ts") { _, _ in .silentAfterHead }
        let database = try MhzDatabase(path: folder.path("mhz.sqlite"))
        let manager = TestDownloads.manager(database, directory: folder.path("songs"), segmentConcurrency: 1)
        try await manager.start()
        let task = try await manager.add(DownloadRequest(url: server.url("live/index.m3u8"), title: "Hanging"))
        let expected = try segment(0)
        try await waitUntil("segment 0 recorded and segment 1 asked for") {
            await (manager.task(task.id)?.bytes ?? 0) >= Int64(expected.count) && !server.requests(to: "/live/s1.ts").isEmpty
        }
        #expect(await manager.finishRecordings() == [task.id])
        await manager.waitUntilSettled([task.id])
        let settled = try #require(await manager.task(task.id))
        await manager.shutdown()
        #expect(settled.state == .completed, "\(settled.state) \(settled.record.reason ?? "")")
        #expect(FileManager.default.contents(atPath: settled.record.path) == expected)
    }
}
