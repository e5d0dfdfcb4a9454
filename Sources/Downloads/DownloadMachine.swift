import Backoff
import Foundation
import Store

/// The download manager's decisions, as a pure state machine: `handle(input) -> [effect]`.
/// Which task runs (at most ``Configuration/maxConcurrent`` at once, oldest first), what a
/// failure means (wait and retry, or stop with the reason), what pause, resume, cancel and
/// remove do. ``DownloadManager`` performs the effects and decides nothing.
public struct DownloadMachine: Sendable {
    /// Tunables.
    public struct Configuration: Sendable, Equatable {
        /// Tasks fetching at once; 0 makes a machine that changes tasks but starts none
        /// (a command that pauses or cancels tasks another process runs).
        public var maxConcurrent: Int
        /// Waits between attempts after a passing failure.
        public var retry: Backoff
        /// Passing failures in a row after which the task fails (the user may retry it).
        public var maxAttempts: Int

        /// Creates a configuration.
        public init(maxConcurrent: Int = 3, retry: Backoff = Backoff(initial: 2, cap: 60, jitter: 0.2),
                    maxAttempts: Int = 6) {
            self.maxConcurrent = max(0, maxConcurrent)
            self.retry = retry
            self.maxAttempts = max(1, maxAttempts)
        }
    }

    /// Something that happened to the downloads.
    public enum Input: Sendable, Equatable {
        /// Tasks of an earlier run, as stored: unfinished ones are continued.
        case restore([DownloadRecord])
        /// A new task (already stored, with its id).
        case add(DownloadRecord)
        /// The user paused a task.
        case pause(Int64)
        /// The user resumed a paused task or retried a failed or canceled one.
        case resume(Int64)
        /// The user canceled a task: it stops and its partial file goes.
        case cancel(Int64)
        /// The user removed a task: it stops, its files go and it is forgotten.
        case remove(Int64)
        /// A running task's bytes on disk, the total when known, and its rate.
        case progress(Int64, bytes: Int64, total: Int64?, rate: Double)
        /// A transfer ended.
        case ended(Int64, TransferOutcome)
        /// A retry timer fired.
        case retryTimer(Int64, token: Int)
        /// Another process changed a task's stored row (`nil`: deleted it).
        case changedElsewhere(Int64, DownloadRecord?)
    }

    /// What to do, in order.
    public enum Effect: Sendable, Equatable {
        /// Start fetching the task, continuing from what is on disk.
        case start(DownloadRecord)
        /// Stop the task's transfer; it ends with ``TransferOutcome/stopped``.
        case stop(Int64)
        /// Store the task's row.
        case save(DownloadRecord)
        /// Delete the task's row.
        case delete(Int64)
        /// Delete the task's partial file and, when `finished`, its finished file too.
        case removeFiles(path: String, finished: Bool)
        /// Feed ``Input/retryTimer(_:token:)`` back after `after` seconds (jitter applied
        /// by the performer).
        case scheduleRetry(Int64, after: Double, token: Int)
        /// Tell listeners.
        case emit(DownloadEvent)
    }

    /// The tunables in force.
    public let configuration: Configuration
    /// Every task known, by id.
    public private(set) var tasks: [Int64: DownloadTask] = [:]
    private var tokens: [Int64: Int] = [:]
    private var nextToken = 1

    /// Creates a machine with no tasks.
    public init(configuration: Configuration = Configuration()) { self.configuration = configuration }

    /// The tasks in the order they were made.
    public var ordered: [DownloadTask] { tasks.values.sorted { $0.id < $1.id } }

    /// Feeds one input; returns the effects, ending with the starts that free slots allow.
    public mutating func handle(_ input: Input) -> [Effect] {
        dispatch(input) + fillSlots()
    }

    private mutating func dispatch(_ input: Input) -> [Effect] {
        switch input {
        case .restore(let records):
            var effects: [Effect] = []
            for record in records {
                guard let id = record.id, tasks[id] == nil else { continue }
                let state = Self.restoredState(record)
                tasks[id] = DownloadTask(record: record, state: state, bytes: record.bytes, total: record.total)
                // A machine that runs nothing leaves the rows of running tasks to their process.
                if state == .queued, record.state != .queued, configuration.maxConcurrent > 0 { effects += changed(id) }
            }
            return effects
        case .add(let record):
            guard let id = record.id else { return [] }
            tasks[id] = DownloadTask(record: record, state: .queued, bytes: record.bytes, total: record.total)
            return [.emit(DownloadEvent(task: tasks[id]!, isProgress: false))]
        case .pause(let id):
            guard let task = tasks[id] else { return [] }
            switch task.state {
            case .queued, .waiting: return set(id, .paused)
            case .running: return [.stop(id)] + set(id, .paused)
            case .paused, .completed, .failed, .canceled: return []
            }
        case .resume(let id):
            guard let task = tasks[id] else { return [] }
            switch task.state {
            case .paused, .failed, .canceled, .waiting: return set(id, .queued)
            case .queued, .running, .completed: return []
            }
        case .cancel(let id):
            guard let task = tasks[id] else { return [] }
            switch task.state {
            case .completed, .canceled: return []
            case .running:
                return [.stop(id), .removeFiles(path: task.record.path, finished: false)] + set(id, .canceled, bytes: 0)
            case .queued, .paused, .waiting, .failed:
                return [.removeFiles(path: task.record.path, finished: false)] + set(id, .canceled, bytes: 0)
            }
        case .remove(let id):
            guard let task = tasks.removeValue(forKey: id) else { return [] }
            tokens[id] = nil
            let stop: [Effect] = task.state == .running ? [.stop(id)] : []
            return stop + [.removeFiles(path: task.record.path, finished: true), .delete(id)]
        case .progress(let id, let bytes, let total, let rate):
            guard var task = tasks[id], task.state == .running else { return [] }
            task.bytes = bytes
            task.total = total ?? task.total
            task.rate = rate
            tasks[id] = task
            return [.emit(DownloadEvent(task: task, isProgress: true))]
        case .ended(let id, let outcome):
            return ended(id, outcome)
        case .retryTimer(let id, let token):
            guard tokens[id] == token, case .waiting? = tasks[id]?.state else { return [] }
            tokens[id] = nil
            return set(id, .queued)
        case .changedElsewhere(let id, let record):
            return changedElsewhere(id, record)
        }
    }

    private mutating func ended(_ id: Int64, _ outcome: TransferOutcome) -> [Effect] {
        guard let task = tasks[id], task.state == .running else { return [] }
        switch outcome {
        case .completed(let bytes):
            return set(id, .completed, bytes: bytes, total: bytes)
        case .stopped:
            // Stopped without a pause or cancel recorded here: the performer gave up on it.
            return set(id, .queued)
        case .failed(let error, let bytes):
            guard error.isTransient else { return set(id, .failed(error), bytes: bytes) }
            let token = nextToken
            nextToken += 1
            tokens[id] = token
            if error == .heldElsewhere {
                // Another process fetches it and records it: look again later, count nothing.
                return silently(id, .waiting(reason: error, attempt: 0), bytes: bytes)
                    + [.scheduleRetry(id, after: configuration.retry.cap, token: token)]
            }
            let attempt = (failuresInARow[id] ?? 0) + 1
            failuresInARow[id] = attempt
            guard attempt < configuration.maxAttempts else {
                failuresInARow[id] = nil
                tokens[id] = nil
                return set(id, .failed(error), bytes: bytes)
            }
            return set(id, .waiting(reason: error, attempt: attempt), bytes: bytes)
                + [.scheduleRetry(id, after: configuration.retry.delay(attempt: attempt - 1), token: token)]
        }
    }

    /// Passing failures in a row of each task, carried through queued → running → waiting
    /// and forgotten when it completes or the user touches it.
    private var failuresInARow: [Int64: Int] = [:]

    private mutating func changedElsewhere(_ id: Int64, _ record: DownloadRecord?) -> [Effect] {
        guard let task = tasks[id] else { return [] }
        guard let record else {
            tasks[id] = nil
            tokens[id] = nil
            return task.state == .running ? [.stop(id)] : []
        }
        switch record.state {
        case .paused where task.state != .paused:
            return (task.state == .running ? [.stop(id)] : []) + silently(id, .paused)
        case .canceled where task.state != .canceled:
            return (task.state == .running ? [.stop(id)] : []) + silently(id, .canceled, bytes: 0)
        case .completed where task.state != .completed:
            return (task.state == .running ? [.stop(id)] : []) + silently(id, .completed, bytes: record.bytes, total: record.total)
        case .queued where task.state.isSettled && task.state != .completed:
            return silently(id, .queued)
        default:
            return []
        }
    }

    /// Starts the oldest queued tasks while slots are free.
    private mutating func fillSlots() -> [Effect] {
        var running = tasks.values.filter { $0.state == .running }.count
        var effects: [Effect] = []
        for task in ordered where task.state == .queued && running < configuration.maxConcurrent {
            effects += set(task.id, .running)
            effects.append(.start(tasks[task.id]!.record))
            running += 1
        }
        return effects
    }

    /// Moves a task to `state`, stores and announces it.
    private mutating func set(_ id: Int64, _ state: DownloadState, bytes: Int64? = nil, total: Int64? = nil) -> [Effect] {
        var effects = silently(id, state, bytes: bytes, total: total)
        switch state {
        case .completed, .canceled, .paused, .failed: failuresInARow[id] = nil
        case .queued, .running, .waiting: break
        }
        if let task = tasks[id] { effects.insert(.save(task.record), at: 0) }
        return effects
    }

    /// Moves a task to `state` and announces it, without storing (the row already says so).
    private mutating func silently(_ id: Int64, _ state: DownloadState, bytes: Int64? = nil, total: Int64? = nil) -> [Effect] {
        guard var task = tasks[id] else { return [] }
        task.state = state
        if let bytes { task.bytes = bytes }
        if let total { task.total = total }
        if state != .running { task.rate = 0 }
        if case .waiting = state {} else { tokens[id] = nil }
        task.record.state = state.stored
        task.record.reason = state.error.flatMap(Self.encode)
        task.record.bytes = task.bytes
        task.record.total = task.total
        tasks[id] = task
        return [.emit(DownloadEvent(task: task, isProgress: false))]
    }

    private mutating func changed(_ id: Int64) -> [Effect] {
        guard let task = tasks[id] else { return [] }
        return set(id, task.state)
    }

    /// The state a stored task continues in: what was under way starts again.
    static func restoredState(_ record: DownloadRecord) -> DownloadState {
        switch record.state {
        case .queued, .running, .waiting: .queued
        case .paused: .paused
        case .completed: .completed
        case .canceled: .canceled
        case .failed: .failed(record.reason.flatMap(decode) ?? .storage(.operationFailed("reason not recorded")))
        }
    }

    /// A reason as the row stores it (JSON).
    static func encode(_ error: DownloadError) -> String? {
        (try? JSONEncoder().encode(error)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// A stored reason read back. A row written while storage failures were kept as text
    /// (`{"storage":{"_0":"…"}}`) reads as ``StoreError/operationFailed(_:)`` with that text.
    static func decode(_ text: String) -> DownloadError? {
        let json = Data(text.utf8)
        if let error = try? JSONDecoder().decode(DownloadError.self, from: json) { return error }
        return (try? JSONDecoder().decode(StorageAsText.self, from: json)).map { .storage(.operationFailed($0.storage.text)) }
    }

    /// A storage failure as rows stored it before it was typed.
    private struct StorageAsText: Decodable {
        struct Words: Decodable {
            var text: String
            enum CodingKeys: String, CodingKey { case text = "_0" }
        }
        var storage: Words
    }
}

/// How one transfer ended.
public enum TransferOutcome: Sendable, Equatable {
    /// The file is complete, verified and in place; `bytes` is its length.
    case completed(bytes: Int64)
    /// It failed; `bytes` are kept on disk for the next attempt.
    case failed(DownloadError, bytes: Int64)
    /// It was stopped on request (pause, cancel, remove, shutdown).
    case stopped
}
