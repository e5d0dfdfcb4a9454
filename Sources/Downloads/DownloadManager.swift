import Backoff
import Foundation
import Logging
import Store
import Synchronization

/// Carries out a ``DownloadMachine``: stores its decisions through a ``DownloadStore``, runs
/// the transfers it starts through a ``DownloadFetcher`` (which alone knows where a task's
/// bytes lie), sets its retry timers and tells listeners what happened. It decides nothing.
///
/// Several processes may share one database (`mhz` playing, `mhz download`, `mhz downloads
/// pause`): while some of its tasks are on their way, each manager looks at their stored
/// rows once a second and follows what another process did to them (paused, canceled,
/// removed, finished).
public actor DownloadManager {
    private var machine: DownloadMachine
    private let store: any DownloadStore
    private let fetcher: any DownloadFetcher
    private let directory: URL
    private let logger: Logger
    private var transfers: [Int64: Task<Void, Never>] = [:]
    /// The number of each task's current transfer: what an earlier, stopped transfer of the
    /// same task reports (its last progress, its end) is not about the current one.
    private var serials: [Int64: Int] = [:]
    private var nextSerial = 1
    /// Transfers told to stop that may not have ended yet (libcurl notices at its next
    /// progress callback): a task started again waits for its old transfer to let go of
    /// the partial file, instead of finding it locked as if another process held it.
    private var stopping: [Int64: Task<Void, Never>] = [:]
    private var listeners: [UUID: AsyncStream<DownloadEvent>.Continuation] = [:]
    private var idleWaiters: [(ids: Set<Int64>, continuation: CheckedContinuation<Void, Never>)] = []
    private var watcher: Task<Void, Never>?
    private var rates: [Int64: RateMeter] = [:]
    /// HLS plans made before their tasks were added (``DownloadRequest/plan``), each handed
    /// to its task's first transfer.
    private var plans: [Int64: HLSPlan] = [:]
    /// Set by ``shutdown()``: from then on nobody waits for tasks to settle (a Ctrl-C that
    /// came before ``waitUntilSettled(_:)`` was asked must still end the wait).
    private var isShutDown = false

    /// Creates a manager for the tasks in `store`, writing songs under `directory`.
    public init(store: any DownloadStore, fetcher: any DownloadFetcher, directory: URL,
                configuration: DownloadMachine.Configuration = .init(), logger: Logger = Logger(label: "mhz.downloads")) {
        machine = DownloadMachine(configuration: configuration)
        self.store = store
        self.fetcher = fetcher
        self.directory = directory
        self.logger = logger
    }

    /// Loads the stored tasks and continues every unfinished one from what is on disk, then
    /// follows changes made by other processes.
    public func start() throws(DownloadError) {
        let records: [DownloadRecord]
        do throws(StoreError) { records = try store.downloads() } catch { throw .storage(error) }
        let onDisk = records.map { record -> DownloadRecord in
            var record = record
            if record.state != .completed { record.bytes = fetcher.bytesOnDisk(record) }
            return record
        }
        handle(.restore(onDisk))
        guard watcher == nil else { return }
        watcher = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                await self?.followStore()
            }
        }
    }

    /// Stops every transfer (their bytes stay on disk and their rows say `running`, so the
    /// next start continues them) and ends the listeners' streams.
    public func shutdown() async {
        isShutDown = true
        watcher?.cancel()
        watcher = nil
        let running = Array(transfers.values) + Array(stopping.values)
        serials.removeAll()
        transfers.removeAll()
        stopping.removeAll()
        for transfer in running { transfer.cancel() }
        for transfer in running { await transfer.value }
        for listener in listeners.values { listener.finish() }
        listeners.removeAll()
        for waiter in idleWaiters { waiter.continuation.resume() }
        idleWaiters.removeAll()
    }

    /// Every event from now on, until ``shutdown()``; any number of listeners.
    public func events() -> AsyncStream<DownloadEvent> {
        let (stream, continuation) = AsyncStream<DownloadEvent>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let key = UUID()
        listeners[key] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.dropListener(key) } }
        return stream
    }

    /// The tasks, oldest first.
    public func tasks() -> [DownloadTask] { machine.ordered }

    /// One task.
    public func task(_ id: Int64) -> DownloadTask? { machine.tasks[id] }

    /// Adds a download of `song` and returns its task. A song already downloaded or on
    /// its way (the same station's sid, or for a plain URL the same URL) is not fetched
    /// twice: its task is returned, and continued if it was paused, failed or canceled. A
    /// finished song whose file has gone is downloaded again.
    public func add(_ song: DownloadRequest) throws(DownloadError) -> DownloadTask {
        // A live recording of a limited length is a new recording each time.
        let same = song.recordSeconds != nil ? nil : machine.ordered.last { task in
            if let station = song.station, let sid = song.sid { return task.record.station == station && task.record.sid == sid }
            return task.record.sid == nil && task.record.url == song.url
        }
        if let same, !(same.state == .completed && !fetcher.isFinished(same.record.path)) {
            switch same.state {
            case .paused, .failed, .canceled: handle(.resume(same.id))
            case .queued, .running, .waiting, .completed: break
            }
            return machine.tasks[same.id] ?? same
        }
        var record = song.record(path: "")
        record.path = freePath(for: record, extension: song.resolvedExtension).path
        do throws(StoreError) { record = try store.insertDownload(record) } catch { throw .storage(error) }
        // Kept before the task is added: adding may start it at once.
        if let id = record.id, let plan = song.plan { plans[id] = plan }
        handle(.add(record))
        return machine.tasks[record.id ?? 0] ?? DownloadTask(record: record, state: .queued)
    }

    /// Asks the live recordings running now to finish with what they recorded (Ctrl-C
    /// during `mhz download --duration`). Returns the tasks asked now (none when every
    /// recording had been asked before).
    public func finishRecordings() -> Set<Int64> { fetcher.finishRecordings() }

    /// Pauses a task.
    public func pause(_ id: Int64) throws(DownloadError) { try known(id); handle(.pause(id)) }
    /// Resumes a paused task or retries a failed or canceled one.
    public func resume(_ id: Int64) throws(DownloadError) { try known(id); handle(.resume(id)) }
    /// Cancels a task and deletes its partial file.
    public func cancel(_ id: Int64) throws(DownloadError) { try known(id); handle(.cancel(id)) }
    /// Forgets a task and deletes its files, the finished song included.
    public func remove(_ id: Int64) throws(DownloadError) { try known(id); handle(.remove(id)) }

    /// Returns once none of `ids` (all tasks when empty) is queued, running or waiting, or
    /// once the manager is shut down (at once when it already was).
    public func waitUntilSettled(_ ids: Set<Int64> = []) async {
        if isShutDown || settled(ids) { return }
        await withCheckedContinuation { idleWaiters.append((ids, $0)) }
    }

    // MARK: - Performing

    private func known(_ id: Int64) throws(DownloadError) {
        guard machine.tasks[id] != nil else { throw .noSuchTask(id) }
    }

    private func settled(_ ids: Set<Int64>) -> Bool {
        machine.tasks.values.allSatisfy { task in (!ids.isEmpty && !ids.contains(task.id)) || task.state.isSettled }
    }

    private func handle(_ input: DownloadMachine.Input) {
        for effect in machine.handle(input) { perform(effect) }
        guard !idleWaiters.isEmpty else { return }
        var waiting: [(ids: Set<Int64>, continuation: CheckedContinuation<Void, Never>)] = []
        for waiter in idleWaiters {
            if settled(waiter.ids) { waiter.continuation.resume() } else { waiting.append(waiter) }
        }
        idleWaiters = waiting
    }

    private func perform(_ effect: DownloadMachine.Effect) {
        switch effect {
        case .start(let record):
            guard let id = record.id else { return }
            let fetcher = self.fetcher
            rates[id] = RateMeter()
            let ticker = ProgressTicker()
            let previous = stopping.removeValue(forKey: id)
            let plan = plans.removeValue(forKey: id)
            let serial = nextSerial
            nextSerial += 1
            serials[id] = serial
            // The transfer holds the manager until it ends; shutdown() cancels and awaits it.
            transfers[id] = Task {
                await previous?.value
                let outcome = await fetcher.fetch(record, plan: plan) { bytes, total in
                    ticker.report(bytes: bytes, total: total) { bytes, total in
                        Task { await self.progressed(id, serial: serial, bytes: bytes, total: total) }
                    }
                }
                self.transferEnded(id, serial: serial, outcome)
            }
        case .stop(let id):
            serials[id] = nil
            if let transfer = transfers.removeValue(forKey: id) {
                transfer.cancel()
                stopping[id] = transfer
                Task { [weak self] in
                    await transfer.value
                    await self?.stopped(id, transfer)
                }
            }
        case .save(let record):
            do throws(StoreError) { try store.updateDownload(record) } catch {
                logger.error("download \(record.id ?? 0): cannot record its state: \(error)")
            }
        case .delete(let id):
            plans[id] = nil
            do throws(StoreError) { try store.deleteDownload(id: id) } catch {
                logger.error("download \(id): cannot forget it: \(error)")
            }
        case .removeFiles(let path, let finished):
            fetcher.removeFiles(of: path, finished: finished)
        case .scheduleRetry(let id, let delay, let token):
            let wait = machine.configuration.retry.jittered(delay)
            Task { [weak self] in
                try? await Task.sleep(for: .milliseconds(Int(wait * 1000)))
                await self?.handle(.retryTimer(id, token: token))
            }
        case .emit(let event):
            if !event.isProgress, let error = event.task.state.error {
                logger.notice("download \(event.task.id) \(event.task.state.name): \(error)")
            }
            for listener in listeners.values { listener.yield(event) }
        }
    }

    /// Forgets a stopped transfer once it has ended (unless a new one already waited for it).
    private func stopped(_ id: Int64, _ transfer: Task<Void, Never>) {
        if stopping[id] == transfer { stopping[id] = nil }
    }

    private func transferEnded(_ id: Int64, serial: Int, _ outcome: TransferOutcome) {
        // A transfer stopped on purpose (pause, cancel, shutdown) was already taken out.
        guard serials[id] == serial else { return }
        serials[id] = nil
        transfers[id] = nil
        rates[id] = nil
        handle(.ended(id, outcome))
    }

    /// Progress (at most four times a second per task: see ``ProgressTicker``), with the
    /// rate over the last few seconds.
    private func progressed(_ id: Int64, serial: Int, bytes: Int64, total: Int64?) {
        guard serials[id] == serial else { return }
        rates[id]?.add(bytes: bytes, at: ContinuousClock.now)
        handle(.progress(id, bytes: bytes, total: total, rate: rates[id]?.rate ?? 0))
    }

    /// Follows what other processes did to this manager's tasks while some are on their way
    /// (a settled task changed elsewhere is that process's to run): a playing mhz with
    /// nothing downloading reads nothing.
    private func followStore() {
        guard machine.tasks.values.contains(where: { !$0.state.isSettled }) else { return }
        let stored: [DownloadRecord]
        do throws(StoreError) { stored = try store.downloads() } catch { return }
        let byID = Dictionary(stored.compactMap { record in record.id.map { ($0, record) } }, uniquingKeysWith: { a, _ in a })
        for task in machine.ordered {
            let row = byID[task.id]
            if row?.state == task.record.state { continue }
            handle(.changedElsewhere(task.id, row))
        }
    }

    private func dropListener(_ key: UUID) { listeners[key] = nil }

    /// A free path for a new song: `Artist - Title.ext`, numbered when taken on disk or by a task.
    private func freePath(for song: DownloadRecord, extension ext: String) -> URL {
        let name = SongFileName.make(artist: song.artist, title: song.title, extension: ext)
        let taken = Set(machine.tasks.values.map(\.record.path))
        var n = 1
        while true {
            let candidate = directory.appendingPathComponent(SongFileName.numbered(name, n))
            if !taken.contains(candidate.path), !fetcher.isTaken(candidate.path) { return candidate }
            n += 1
        }
    }
}

/// Lets a transfer's progress through to the manager at most four times a second: libcurl
/// calls back after every received chunk, thousands of times a second on a fast link. What
/// comes within 250 ms of the last report is held, and the latest of it is reported when
/// the 250 ms are up: the last progress of a burst (an HLS recording's last appended segment
/// before it waits for the next) is never lost.
final class ProgressTicker: Sendable {
    private struct State {
        var last: ContinuousClock.Instant?
        var held: (bytes: Int64, total: Int64?)?
        var flushing = false
    }

    private let state = Mutex(State())
    private static let interval = Duration.milliseconds(250)

    /// Passes `bytes` and `total` to `deliver` now, or the latest values once the interval
    /// since the last report is up.
    func report(bytes: Int64, total: Int64?, deliver: @escaping @Sendable (Int64, Int64?) -> Void) {
        let now = ContinuousClock.now
        let flushAt: ContinuousClock.Instant?? = state.withLock { s in
            if let previous = s.last, now - previous < Self.interval {
                s.held = (bytes, total)
                if s.flushing { return .some(nil) }
                s.flushing = true
                return previous + Self.interval
            }
            s.last = now
            s.held = nil
            return nil
        }
        switch flushAt {
        case .none:
            deliver(bytes, total)
        case .some(.some(let at)):
            Task {
                try? await Task.sleep(until: at, clock: .continuous)
                let held: (bytes: Int64, total: Int64?)? = state.withLock { s in
                    defer { s.held = nil }
                    s.flushing = false
                    if s.held != nil { s.last = ContinuousClock.now }
                    return s.held
                }
                if let held { deliver(held.bytes, held.total) }
            }
        case .some(.none):
            break
        }
    }
}

/// Bytes per second over the last few seconds.
struct RateMeter {
    private var samples: [(ContinuousClock.Instant, Int64)] = []

    /// Notes that `bytes` were on disk at `time`, forgetting samples older than three seconds.
    mutating func add(bytes: Int64, at time: ContinuousClock.Instant) {
        samples.append((time, bytes))
        samples.removeAll { time - $0.0 > .seconds(3) }
    }

    /// Bytes per second between the oldest and newest samples kept (0 with fewer than two,
    /// or less than 100 ms apart: two samples a moment apart would make any rate at all,
    /// an infinite one when they fall in the same millisecond).
    var rate: Double {
        guard let first = samples.first, let last = samples.last else { return 0 }
        let (seconds, attoseconds) = (last.0 - first.0).components
        let elapsed = Double(seconds) + Double(attoseconds) / 1e18
        guard elapsed >= 0.1 else { return 0 }
        return (Double(last.1) - Double(first.1)) / elapsed
    }
}
