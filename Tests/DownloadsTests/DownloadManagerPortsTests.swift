import Backoff
import Foundation
import HLSPlaylist
import Store
import Testing
import TestSupport
@testable import Downloads

/// The manager over in-memory fakes of its ports (no SQLite, no network, no files): what it
/// stores, what it asks the fetcher for and when, the HLS plan handed to the first transfer
/// alone, and its storage failures as typed reasons.
@Suite(.serialized)
struct DownloadManagerPortsTests {
    private let store = MemoryDownloadStore()
    private let fetcher = ScriptedFetcher()

    func manager() -> DownloadManager {
        DownloadManager(store: store, fetcher: fetcher, directory: URL(fileURLWithPath: "/songs"),
                        configuration: .init(maxConcurrent: 1, retry: Backoff(initial: 0.01, cap: 0.01, jitter: 0)))
    }

    @Test func tasksRunThroughThePortsAndThePlanGoesToTheFirstTransferOnly() async throws {
        let media = try PlaylistParser.parse(Data("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\ns0.aac\n#EXT-X-ENDLIST\n".utf8),
                                             url: URL(string: "http://example.test/live/index.m3u8")!)
        guard case .media(let playlist) = media else { Issue.record("\(media)"); return }
        let plan = HLSPlan(master: nil, choice: nil, mediaURL: URL(string: "http://example.test/live/index.m3u8")!, media: playlist)
        // Something of another download already lies where the file song would go.
        fetcher.taken.withLock { $0 = ["/songs/Sine - Tone.mp3"] }
        let manager = manager()
        var log = StateLog(events: await manager.events().makeAsyncIterator())
        var started = fetcher.started.makeAsyncIterator()
        try await manager.start()

        let stream = try await manager.add(DownloadRequest(url: "http://example.test/live/index.m3u8", title: "Live",
                                                           quality: .kbps(128), plan: plan))
        let song = try await manager.add(DownloadRequest(url: "http://example.test/tone.mp3", title: "Tone", artist: "Sine"))
        #expect(stream.record.path == "/songs/Live.aac", "named by the plan's container")
        #expect(song.record.path == "/songs/Sine - Tone (2).mp3")
        #expect(store.rows.value.map(\.quality) == ["128", nil])
        #expect(await started.next() == stream.id)
        #expect(store.rows.value.map(\.state) == [.running, .queued])

        // A passing failure frees the slot; the stream runs again after the song, without the plan.
        fetcher.end(stream.id, .failed(.network(detail: "reset"), bytes: 10))
        #expect(await started.next() == song.id)
        // Its retry timer fired: it waits for the slot the song holds.
        await log.read(until: 6)
        #expect(log.lines == ["1 queued", "1 running", "2 queued", "1 waiting", "2 running", "1 queued"])
        fetcher.end(song.id, .completed(bytes: 300))
        #expect(await started.next() == stream.id)
        fetcher.end(stream.id, .completed(bytes: 500))
        await log.read(until: 9)
        #expect(log.lines.dropFirst(6) == ["2 completed", "1 running", "1 completed"])
        #expect(fetcher.calls.value == [.init(id: stream.id, plan: plan), .init(id: song.id, plan: nil),
                                        .init(id: stream.id, plan: nil)])
        #expect(store.rows.value.map(\.state) == [.completed, .completed])
        #expect(store.rows.value.map(\.bytes) == [500, 300])

        // Removing a task deletes its files through the fetcher and its row through the store.
        try await manager.remove(song.id)
        #expect(fetcher.removed.value == [.init(path: "/songs/Sine - Tone (2).mp3", finished: true)])
        #expect(store.rows.value.map(\.id) == [stream.id])
        await manager.shutdown()
    }

    /// A Ctrl-C may come before `mhz download` waits for its tasks: a wait asked after the
    /// shutdown ends at once, and the task stays running in its row, for the next start.
    /// (The time limit only turns a wait that never ends into a failure.)
    @Test(.timeLimit(.minutes(1))) func aWaitAskedAfterTheShutdownEndsAtOnce() async throws {
        let manager = manager()
        var started = fetcher.started.makeAsyncIterator()
        try await manager.start()
        let task = try await manager.add(DownloadRequest(url: "http://example.test/tone.mp3", title: "Tone", artist: "Sine"))
        #expect(await started.next() == task.id)
        await manager.shutdown()
        await manager.waitUntilSettled([task.id])
        #expect(await manager.task(task.id)?.state == .running)
        #expect(store.rows.value.map(\.state) == [.running])
        #expect(fetcher.calls.value.map(\.id) == [task.id])
    }

    @Test func storageFailuresAreTypedReasonsAndOldRowsStillReadBack() async throws {
        // A row failed before storage failures were typed: its reason holds the words alone.
        var old = DownloadRecord(url: "http://example.test/a.mp3", state: .failed, title: "A", artist: "B", path: "/songs/B - A.mp3")
        old.reason = #"{"storage":{"_0":"disk I/O error"}}"#
        _ = try store.insertDownload(old)
        let manager = manager()
        try await manager.start()
        #expect(await manager.task(1)?.state == .failed(.storage(.operationFailed("disk I/O error"))))

        store.failNext.withLock { $0 = .diskFull("database or disk is full") }
        await #expect(throws: DownloadError.storage(.diskFull("database or disk is full"))) {
            try await manager.add(DownloadRequest(url: "http://example.test/c.mp3", title: "C"))
        }
        #expect(await manager.tasks().map(\.id) == [1])
        #expect(fetcher.calls.value.isEmpty)
        // A typed reason is stored and read back as it was.
        let reason = DownloadError.storage(.cannotOpen(path: "/data/mhz.sqlite", reason: "unable to open database file"))
        #expect(DownloadMachine.encode(reason).flatMap(DownloadMachine.decode) == reason)
        await manager.shutdown()
    }
}

/// The states a manager announces, as `ID state` lines.
private struct StateLog {
    var events: AsyncStream<DownloadEvent>.Iterator
    var lines: [String] = []

    /// Reads events until `count` lines are in.
    mutating func read(until count: Int) async {
        while lines.count < count, let event = await events.next() {
            if !event.isProgress { lines.append("\(event.task.id) \(event.task.state.name)") }
        }
    }
}

/// Download rows in memory, numbered from 1 as SQLite numbers them.
private final class MemoryDownloadStore: DownloadStore {
    /// The rows, oldest first.
    let rows = Locked<[DownloadRecord]>([])
    /// A failure the next write throws instead of writing.
    let failNext = Locked<StoreError?>(nil)

    func downloads() throws(StoreError) -> [DownloadRecord] { rows.value }

    func insertDownload(_ record: DownloadRecord) throws(StoreError) -> DownloadRecord {
        try failIfAsked()
        return rows.withLock { rows in
            var stored = record
            stored.id = Int64(rows.count + 1)
            rows.append(stored)
            return stored
        }
    }

    func updateDownload(_ record: DownloadRecord) throws(StoreError) {
        try failIfAsked()
        rows.withLock { rows in
            if let index = rows.firstIndex(where: { $0.id == record.id }) { rows[index] = record }
        }
    }

    func deleteDownload(id: Int64) throws(StoreError) {
        try failIfAsked()
        rows.withLock { $0.removeAll { $0.id == id } }
    }

    private func failIfAsked() throws(StoreError) {
        if let failure = failNext.withLock({ failure in defer { failure = nil }; return failure }) { throw failure }
    }
}

/// A fetcher whose transfers end when the test says (or when the manager cancels them), over
/// files that exist only as paths.
private final class ScriptedFetcher: DownloadFetcher {
    /// One transfer asked for.
    struct Call: Equatable, Sendable {
        var id: Int64
        var plan: HLSPlan?
    }

    /// One removal asked for.
    struct Removal: Equatable, Sendable {
        var path: String
        var finished: Bool
    }

    /// Every transfer asked for, in order.
    let calls = Locked<[Call]>([])
    /// Paths something lies at.
    let taken = Locked<Set<String>>([])
    /// Every removal asked for, in order.
    let removed = Locked<[Removal]>([])
    /// The id of each transfer as it starts waiting for its end.
    let started: AsyncStream<Int64>
    private let startedContinuation: AsyncStream<Int64>.Continuation
    private let waiting = Locked<[Int64: CheckedContinuation<TransferOutcome, Never>]>([:])

    init() { (started, startedContinuation) = AsyncStream.makeStream() }

    func fetch(_ record: DownloadRecord, plan: HLSPlan?, progress: @escaping @Sendable (Int64, Int64?) -> Void) async
        -> TransferOutcome
    {
        let id = record.id ?? 0
        calls.withLock { $0.append(Call(id: id, plan: plan)) }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiting.withLock { $0[id] = continuation }
                // Cancelled before it waited: the handler found nothing to end.
                if Task.isCancelled { end(id, .stopped) } else { startedContinuation.yield(id) }
            }
        } onCancel: {
            end(id, .stopped)
        }
    }

    /// Ends transfer `id` with `outcome` (a transfer already ended is left alone).
    func end(_ id: Int64, _ outcome: TransferOutcome) {
        waiting.withLock { $0.removeValue(forKey: id) }?.resume(returning: outcome)
    }

    func bytesOnDisk(_ record: DownloadRecord) -> Int64 { 0 }
    func isFinished(_ path: String) -> Bool { taken.value.contains(path) }
    func isTaken(_ path: String) -> Bool { taken.value.contains(path) }
    func removeFiles(of path: String, finished: Bool) { removed.withLock { $0.append(Removal(path: path, finished: finished)) } }
}
