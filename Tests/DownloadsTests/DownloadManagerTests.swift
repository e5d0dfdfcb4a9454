import Foundation
import Store
import Testing
import TestSupport
@testable import Downloads

/// The manager with the real fetcher, database and a local server: slots, events, and
/// tasks that outlive the manager.
@Suite(.serialized)
struct DownloadManagerTests {
    let served: TemporaryDirectory
    let data: TemporaryDirectory
    let server: FaultyMediaServer

    init() throws {
        served = try TemporaryDirectory(prefix: "mhz-manager-served")
        data = try TemporaryDirectory(prefix: "mhz-manager-data")
        for n in 1...4 { try MediaFactory.tone(at: served.path("s\(n).mp3"), seconds: 6, frequency: 300 + 100 * n) }
        server = try FaultyMediaServer(root: served.url)
    }

    func manager(_ database: MhzDatabase, concurrent: Int = 2) -> DownloadManager {
        TestDownloads.manager(database, directory: data.path("songs"), maxConcurrent: concurrent)
    }

    @Test func atMostTwoRunAndANewManagerContinuesWhatTheFirstLeft() async throws {
        let database = try MhzDatabase(path: data.path("mhz.sqlite"))
        // ~97 kB each: the first request of each gets 30 kB, then nothing for a minute, so
        // the stop lands midway however long this test's task is held back by the tests
        // running beside it; the first manager's stall allowance is longer than that minute.
        server.script("/s1.mp3") { _, start in start == nil ? .stallAfter(bytes: 30_000, seconds: 60) : .serve }
        server.script("/s2.mp3") { _, start in start == nil ? .stallAfter(bytes: 30_000, seconds: 60) : .serve }
        let first = TestDownloads.manager(database, directory: data.path("songs"), stallTimeout: 120)
        let events = await first.events()
        let running = Locked<Set<Int64>>([])
        let mostAtOnce = Locked(0)
        let watcher = Task {
            for await event in events where !event.isProgress {
                let count = running.withLock { set in
                    if event.task.state == .running { set.insert(event.task.id) } else { set.remove(event.task.id) }
                    return set.count
                }
                mostAtOnce.withLock { $0 = max($0, count) }
            }
        }
        try await first.start()
        var ids: [Int64] = []
        for n in 1...4 {
            ids.append(try await first.add(DownloadRequest(url: server.url("s\(n).mp3"), title: "Tone \(n)", artist: "Sine",
                                                           sid: "\(n)", channel: "1", station: "test")).id)
        }
        // Adding the same song of the same station again gives the same task.
        #expect(try await first.add(DownloadRequest(url: server.url("s1.mp3"), title: "Tone 1", artist: "Sine",
                                                    sid: "1", station: "test")).id == ids[0])
        try await waitUntil("the first song running past 20 kB") {
            guard let task = await first.task(ids[0]) else { return false }
            return task.state == .running && task.bytes > 20_000
        }
        await first.shutdown()
        await watcher.value
        #expect(mostAtOnce.withLock { $0 } == 2)
        let stored = try database.downloads()
        #expect(stored.map(\.state) == [.running, .running, .queued, .queued], "\(stored)")
        #expect(stored.map(\.path) == (1...4).map { data.path("songs/Sine - Tone \($0).mp3").path })

        let second = manager(database)
        try await second.start()
        await second.waitUntilSettled()
        let tasks = await second.tasks()
        #expect(tasks.map(\.state) == [.completed, .completed, .completed, .completed], "\(tasks)")
        for n in 1...4 {
            let original = try Data(contentsOf: served.path("s\(n).mp3"))
            let saved = FileManager.default.contents(atPath: data.path("songs/Sine - Tone \(n).mp3").path)
            #expect(SongFetcherTests.audio(saved) == SongFetcherTests.audio(original), "song \(n): \(server.requests)")
        }
        // The interrupted songs continued from their bytes on disk (the server records a
        // request when its answer ends: the first one's when it notices the client left).
        try await waitUntil("both requests for s1 recorded") { server.requests(to: "/s1.mp3").count == 2 }
        let resumed = try #require(server.requests(to: "/s1.mp3").first { $0.rangeStart != nil })
        let start = try #require(resumed.rangeStart)
        #expect(start > 20_000)
        #expect(resumed.status == 206)
        #expect(resumed.sent == (try Data(contentsOf: served.path("s1.mp3"))).count - start)
        #expect(try database.downloads().allSatisfy { $0.state == .completed })
        await second.shutdown()
    }

    @Test func pauseFromAnotherProcessIsFollowedAndResumeContinues() async throws {
        let database = try MhzDatabase(path: data.path("mhz.sqlite"))
        server.script("/s1.mp3") { _, _ in .throttle(bytesPerSecond: 15_000) }
        let running = manager(database)
        try await running.start()
        let id = try await running.add(DownloadRequest(url: server.url("s1.mp3"), title: "Tone", artist: "Sine")).id
        try await waitUntil("s1 past 10 kB") { await running.task(id)?.bytes ?? 0 > 10_000 }
        // `mhz downloads pause ID` in another process: a control manager over the same file.
        let other = manager(try MhzDatabase(path: data.path("mhz.sqlite")), concurrent: 0)
        try await other.start()
        try await other.pause(id)
        await other.shutdown()
        try await waitUntil("s1 paused") { await running.task(id)?.state == .paused }
        let kept = await running.task(id)?.bytes ?? 0
        #expect(kept > 10_000)
        server.script("/s1.mp3") { _, _ in .serve }
        try await running.resume(id)
        await running.waitUntilSettled([id])
        #expect(await running.task(id)?.state == .completed)
        // The server records a request when its answer ends, so the stopped first one may
        // come after the resumed one: the resumed one is the one with a range.
        try await waitUntil("both requests for s1 recorded") { server.requests(to: "/s1.mp3").count >= 2 }
        #expect(server.requests(to: "/s1.mp3").compactMap(\.rangeStart).max() ?? 0 >= Int(kept))
        await running.shutdown()
    }
}
