import Foundation
import Store
import Testing
import TestSupport
@testable import Downloads

/// A stream with `EXT-X-DISCONTINUITY` tags through the real manager and fetcher: where
/// each period starts is recorded with each append (and kept across a stop), and the
/// finished partial file goes to the ``DiscontinuityRepair`` port (a recording fake here;
/// FFmpeg's is tested through the built mhz) before the rename.
@Suite(.serialized)
struct HLSPeriodTests {
    let streams: HLSFixture.Streams
    let data: TemporaryDirectory
    let server: FaultyMediaServer

    /// Segments of three variants, two discontinuities: periods of 2, 2 and 2 segments.
    static let segments = ["clear/a128k/seg000.ts", "clear/a128k/seg001.ts", "clear/a64k/seg002.ts",
                           "clear/a64k/seg003.ts", "clear/a192k/seg004.ts", "clear/a192k/seg005.ts"]

    init() async throws {
        streams = try await HLSFixture.streams()
        data = try TemporaryDirectory(prefix: "mhz-hls-periods")
        server = try FaultyMediaServer(root: streams.folder)
        let folder = streams.path("periods")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for (n, segment) in Self.segments.enumerated() {
            if n == 2 || n == 4 { text += "#EXT-X-DISCONTINUITY\n" }
            text += "#EXTINF:4,\n../\(segment)\n"
        }
        try Data((text + "#EXT-X-ENDLIST\n").utf8).write(to: folder.appendingPathComponent("index.m3u8"))
    }

    /// A repair that records what it was given, checks the input is the whole joined
    /// segments, and answers `answer` (writing `marker` to the output when it repairs).
    final class RecordingRepair: DiscontinuityRepair {
        let answer: PeriodRepair
        let calls = Locked<[(input: Data?, starts: [Int64], output: String)]>([])
        static let marker = Data("one stream".utf8)

        init(_ answer: PeriodRepair) { self.answer = answer }

        func repair(_ input: String, periodStarts: [Int64], output: String) -> PeriodRepair {
            calls.withLock { $0.append((FileManager.default.contents(atPath: input), periodStarts, output)) }
            if case .repaired = answer { _ = FileManager.default.createFile(atPath: output, contents: Self.marker) }
            return answer
        }
    }

    func manager(_ database: MhzDatabase, repair: RecordingRepair, concurrency: Int = 4) -> DownloadManager {
        TestDownloads.manager(database, directory: data.path("songs"), maxConcurrent: 1, segmentConcurrency: concurrency,
                              repair: repair)
    }

    var joined: Data { get throws { try Self.segments.reduce(into: Data()) { $0.append(try Data(contentsOf: streams.path($1))) } } }

    /// Byte offsets where the segments at `indices` start in the joined file.
    func offsets(_ indices: [Int]) throws -> [Int64] {
        let sizes = try Self.segments.map { Int64(try Data(contentsOf: streams.path($0)).count) }
        return indices.map { sizes.prefix($0).reduce(0, +) }
    }

    func download(_ repair: RecordingRepair) async throws -> (DownloadTask, MhzDatabase) {
        let database = try MhzDatabase(path: data.path("mhz-\(UUID().uuidString).sqlite"))
        let manager = manager(database, repair: repair)
        try await manager.start()
        let task = try await manager.add(DownloadRequest(url: server.url("periods/index.m3u8"), title: "Periods"))
        await manager.waitUntilSettled([task.id])
        let settled = try #require(await manager.task(task.id))
        await manager.shutdown()
        return (settled, database)
    }

    @Test func theRepairGetsTheWholeFileAndWherePeriodsStartAndItsOutputTakesThePlace() async throws {
        let repair = RecordingRepair(.repaired(keptBytes: 10, retimed: 0, reencoded: 2))
        let (task, database) = try await download(repair)
        #expect(task.state == .completed, "\(task.state)")
        let calls = repair.calls.withLock { $0 }
        #expect(calls.count == 1)
        let starts = try offsets([2, 4])
        #expect(calls.first?.starts == starts)
        #expect(calls.first?.input == (try joined), "the partial file is the segments as they came")
        #expect(calls.first?.output == task.record.path + ".part-joined")
        #expect(FileManager.default.contents(atPath: task.record.path) == RecordingRepair.marker)
        #expect(task.bytes == Int64(RecordingRepair.marker.count))
        #expect(try FileManager.default.contentsOfDirectory(atPath: data.path("songs").path) == ["Periods.ts"])
        #expect(try database.hlsProgress(downloadID: task.id) == nil)
    }

    @Test(arguments: [PeriodRepair.notNeeded, .failed(reason: "a period carries video")])
    func periodsThatNeedNothingOrCannotBeJoinedAreKeptAsTheyCame(answer: PeriodRepair) async throws {
        let repair = RecordingRepair(answer)
        let (task, _) = try await download(repair)
        #expect(task.state == .completed, "\(task.state)")
        #expect(repair.calls.withLock { $0.count } == 1)
        #expect(FileManager.default.contents(atPath: task.record.path) == (try joined))
        #expect(try FileManager.default.contentsOfDirectory(atPath: data.path("songs").path) == ["Periods.ts"])
    }

    @Test func aStreamWithoutDiscontinuitiesIsNotGivenToTheRepair() async throws {
        let repair = RecordingRepair(.repaired(keptBytes: 0, retimed: 1, reencoded: 0))
        let database = try MhzDatabase(path: data.path("mhz.sqlite"))
        let manager = manager(database, repair: repair)
        try await manager.start()
        let task = try await manager.add(DownloadRequest(url: server.url("clear/a128k/index.m3u8"), title: "Plain"))
        await manager.waitUntilSettled([task.id])
        #expect(await manager.task(task.id)?.state == .completed)
        await manager.shutdown()
        #expect(repair.calls.withLock { $0.isEmpty })
    }

    @Test func periodStartsSurviveAStopAndTheResumeAddsTheRest() async throws {
        // The first three segments come at once; the rest only after the stop (before it,
        // their server falls silent after the head, and the first manager allows a long stall).
        for name in Self.segments.suffix(3) { server.script("/" + name) { _, _ in .silentAfterHead } }
        let repair = RecordingRepair(.notNeeded)
        let database = try MhzDatabase(path: data.path("mhz.sqlite"))
        let first = TestDownloads.manager(database, directory: data.path("songs"), maxConcurrent: 1, segmentConcurrency: 1,
                                          repair: repair, stallTimeout: 120)
        try await first.start()
        let id = try await first.add(DownloadRequest(url: server.url("periods/index.m3u8"), title: "Periods")).id
        try await waitUntil("three segments done") { (try database.hlsProgress(downloadID: id)?.segmentsDone ?? 0) >= 3 }
        await first.shutdown()
        let row = try #require(try database.hlsProgress(downloadID: id))
        let firstStart = try offsets([2])
        #expect(row.segmentsDone == 3 && row.periodStarts == firstStart, "\(row)")
        for name in Self.segments.suffix(3) { server.script("/" + name) { _, _ in .serve } }
        let second = manager(database, repair: repair)
        try await second.start()
        await second.waitUntilSettled([id])
        #expect(await second.task(id)?.state == .completed)
        await second.shutdown()
        let starts = try offsets([2, 4])
        #expect(repair.calls.withLock { $0.map(\.starts) } == [starts])
    }
}
