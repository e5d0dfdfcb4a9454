import Foundation
import Logging
import MusicLibrary
import StationStorage
import Synchronization

/// Measures the sound of a library's tracks in the background, each file once, and hands
/// the station a new ``SoundTable`` as results come in, so the station answers at once and
/// gets better as the analysis finishes.
///
/// ``schedule(_:publish:)`` is called after each scan that changed something. The first
/// worker thread *surveys* the database (``SoundRecords``: rows of files gone are removed,
/// the features of files measured as they are now are taken into memory), publishes the
/// table they make, and queues every track not measured as it is now; up to ``workers``
/// threads then take tracks one at a time, measure them (``SoundAnalyzer``) and commit each
/// result in a transaction of its own. A `kill -9` loses only the files being measured,
/// which the next start measures again. A file that cannot be read is recorded as such and
/// skipped until it changes.
///
/// **Off the request path.** The workers are threads of their own, each at nice 10
/// (`setpriority(2)` on the calling thread: Linux keeps a nice value per thread), so the
/// station's request threads, at 0, get the cores first; no request ever waits for them.
/// They end when there is nothing left to do, so an idle station keeps no analysis threads
/// and a command that finds everything measured never loads aubio or FFmpeg.
///
/// **Publishing.** A table is built (a z-score pass over the analysed tracks, milliseconds
/// for tens of thousands) and handed to `publish` after the survey, at most once a second
/// while results arrive, and when the queue is done.
package final class BackgroundAnalysis: Sendable {
    /// Where a table goes: the station swaps it in beside the library it was built for.
    package typealias Publish = @Sendable (SoundTable) -> Void

    /// How long results may wait before a table with them is published.
    static let publishInterval: Duration = .seconds(1)
    /// The nice value of the worker threads.
    static let niceness: Int32 = 10

    /// One file to measure, as the scan cache knew it.
    private struct Job: Sendable {
        var path: String
        var sid: String
        var file: URL
        var size: Int64
        var modified: Int64
    }

    private struct State {
        /// The library measured for, and where its tables go.
        var library: Library?
        var publish: Publish?
        /// Bumped by each ``schedule(_:publish:)``: a survey of an older library is dropped.
        var generation = 0
        /// A survey is waiting for a thread, or one is running.
        var surveyPending = false
        var surveying = false
        /// Next job last.
        var queue: [Job] = []
        var inFlight = 0
        var threads = 0
        var stopping = false
        /// The machine cannot analyse (no FFmpeg or aubio): why. Nothing more is tried.
        var unavailable: String?
        var catalog = SoundCatalog()
        var lastPublish: ContinuousClock.Instant?
        var round: AnalysisRound?
        /// The last pass that ended.
        var lastRound: AnalysisRound?
        /// Files of the library found unreadable: those the last survey knew of, and those
        /// measured since.
        var unreadable = 0
        /// Waiting for ``idle()`` and ``stop()``.
        var idleWatchers: [CheckedContinuation<Void, Never>] = []
        var stopWatchers: [CheckedContinuation<Void, Never>] = []

        var isIdle: Bool { !surveyPending && !surveying && queue.isEmpty && inFlight == 0 }
    }

    /// The most threads measuring at once.
    package let workers: Int
    private let records: SoundRecords
    private let logger: Logger
    private let gate: AnalysisGate?
    private let afterRound: (@Sendable () -> Void)?
    private let state = Mutex(State())
    /// Held while a table is built and handed over, so tables are published in the order
    /// of the results they hold.
    private let publishing = Mutex(())

    /// An analysis keeping its results in `records`.
    ///
    /// - Parameters:
    ///   - workers: the most threads measuring at once (default: one per core).
    ///   - logger: where the opening and closing lines of each pass go (info), its progress
    ///     at most every ``ProgressPace/interval`` between them (info), and each
    ///     unreadable file (info) or database failure (warning).
    ///   - gate: passed by every worker before each file (tests).
    ///   - afterRound: called once a pass has measured everything it set out to, after its
    ///     closing line (on the thread of its last file).
    package init(records: SoundRecords, workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                 logger: Logger, gate: AnalysisGate? = nil, afterRound: (@Sendable () -> Void)? = nil) {
        self.records = records
        self.workers = max(1, workers)
        self.logger = logger
        self.gate = gate
        self.afterRound = afterRound
    }

    /// The table for `library` from what has been measured so far.
    package func table(for library: Library) -> SoundTable {
        state.withLock { $0.catalog }.table(for: library)
    }

    /// Measures what `library` holds that has not been measured as it is now, in the
    /// background; replaces whatever an earlier call left to do. Returns at once.
    package func schedule(_ library: Library, publish: @escaping Publish) {
        let start = state.withLock { state -> Bool in
            state.library = library
            state.publish = publish
            state.generation += 1
            state.surveyPending = true
            state.stopping = false
            state.queue = []
            guard state.threads == 0 else { return false }
            state.threads = 1
            return true
        }
        if start { spawn() }
    }

    /// Publishes for `library` from now on, without surveying again: for a scan that found
    /// nothing new, changed or gone, whose library holds the tracks of the last one in the
    /// same order.
    package func follow(_ library: Library, publish: @escaping Publish) {
        state.withLock { state in
            state.library = library
            state.publish = publish
        }
    }

    /// How many of the library's files the analysis found unreadable (as the last survey
    /// knew them, and since).
    package var unreadableCount: Int {
        state.withLock { $0.unreadable }
    }

    /// The pass under way, else the last one that ended; `nil` before the first survey.
    package var progress: AnalysisRound? {
        state.withLock { $0.round ?? $0.lastRound }
    }

    /// Whether ``stop()`` was called and no ``schedule(_:publish:)`` since.
    package var isStopped: Bool {
        state.withLock { $0.stopping }
    }

    /// Returns once nothing is queued, surveyed or being measured.
    package func idle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.isIdle || state.stopping { return true }
                state.idleWatchers.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Stops the workers (a file being measured is given up at its next chunk, and measured
    /// again by the next ``schedule(_:publish:)``) and returns once every thread has ended.
    package func stop() async {
        let idle = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.stopping = true
            state.queue = []
            defer { state.idleWatchers = [] }
            return state.idleWatchers
        }
        for watcher in idle { watcher.resume() }
        // After `stopping` is set: a worker let through gives its file up at once.
        gate?.open()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.threads == 0 { return true }
                state.stopWatchers.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    // MARK: - Workers

    private enum Work {
        case survey(Library, generation: Int)
        case measure(Job)
        case end
    }

    private func spawn() {
        let thread = Thread { [self] in
            // "who = 0": the calling thread (Linux/NPTL keeps nice per thread).
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.niceness)
            work()
        }
        thread.name = "mhz.sound"
        thread.start()
    }

    private func work() {
        while true {
            switch next() {
            case .end: return
            case .survey(let library, let generation): survey(library, generation: generation)
            case .measure(let job): measure(job)
            }
        }
    }

    /// The next task for this thread, or `.end` (the thread is counted out, and whoever
    /// waits for idleness or the stop is told).
    private func next() -> Work {
        let (task, watchers) = state.withLock { state -> (Work, [CheckedContinuation<Void, Never>]) in
            if !state.stopping, state.unavailable == nil {
                if state.surveyPending, let library = state.library {
                    state.surveyPending = false
                    state.surveying = true
                    return (.survey(library, generation: state.generation), [])
                }
                if let job = state.queue.popLast() {
                    state.inFlight += 1
                    return (.measure(job), [])
                }
            }
            state.threads -= 1
            var watchers: [CheckedContinuation<Void, Never>] = []
            if state.threads == 0 {
                watchers = state.stopWatchers + state.idleWatchers
                state.stopWatchers = []
                state.idleWatchers = []
            }
            return (.end, watchers)
        }
        for watcher in watchers { watcher.resume() }
        return task
    }

    /// Reads what the database knows, takes the measured features into memory, queues the
    /// rest and publishes.
    private func survey(_ library: Library, generation: Int) {
        let known: [String: SoundRecords.Known]
        do throws(StorageError) {
            known = try records.survey()
        } catch {
            logger.warning("sound analysis: the station database cannot be read: \(error.reason)")
            finishSurvey(generation: generation, jobs: [], catalog: nil)
            return
        }
        var catalog = SoundCatalog()
        var jobs: [Job] = []
        var measuredOrUnreadable = 0, unreadable = 0
        for track in library.tracks {
            switch known[track.relativePath] {
            case .measured(let features, let loudness):
                catalog.set(features, loudness: loudness, for: track.sid)
                measuredOrUnreadable += 1
            case .unreadable:
                measuredOrUnreadable += 1
                unreadable += 1
            case .stale(let features, let size, let modified):
                // The features serve meanwhile; the file is heard again for its loudness.
                catalog.set(features, for: track.sid)
                jobs.append(Job(path: track.relativePath, sid: track.sid, file: track.file, size: size, modified: modified))
            case .pending(let size, let modified):
                jobs.append(Job(path: track.relativePath, sid: track.sid, file: track.file, size: size, modified: modified))
            case nil:
                // Not in the scan cache as present and readable: the scan that made this
                // library has been overtaken; the next schedule brings the right one.
                break
            }
        }
        let round = AnalysisRound(started: .now, queued: jobs.count, known: measuredOrUnreadable)
        state.withLock { state in
            guard state.generation == generation else { return }
            state.unreadable = unreadable
            if jobs.isEmpty {
                state.round = nil
                state.lastRound = round
            } else {
                state.round = round
            }
        }
        if !jobs.isEmpty {
            logger.info("\(round.opening)")
        } else if measuredOrUnreadable > 0 {
            logger.info("\(round.nothingToMeasure)")
        }
        finishSurvey(generation: generation, jobs: jobs, catalog: catalog)
    }

    private func finishSurvey(generation: Int, jobs: [Job], catalog: SoundCatalog?) {
        let (extra, current, watchers) = state.withLock { state -> (Int, Bool, [CheckedContinuation<Void, Never>]) in
            state.surveying = false
            guard state.generation == generation else { return (0, false, []) }
            if let catalog { state.catalog = catalog }
            state.queue = jobs.reversed()
            let wanted = min(workers, max(1, state.queue.count)) - state.threads
            let extra = state.stopping || state.unavailable != nil ? 0 : max(0, wanted)
            state.threads += extra
            var watchers: [CheckedContinuation<Void, Never>] = []
            if state.isIdle {
                watchers = state.idleWatchers
                state.idleWatchers = []
            }
            return (extra, true, watchers)
        }
        if current { publish() }
        for _ in 0..<extra { spawn() }
        for watcher in watchers { watcher.resume() }
    }

    /// Measures one file, commits the result, and publishes when it is time.
    private func measure(_ job: Job) {
        gate?.pass()
        let outcome: Result<SoundAnalysis, SoundAnalysisError>
        do throws(SoundAnalysisError) {
            outcome = .success(try SoundAnalyzer.analyze(job.file) { self.state.withLock { $0.stopping } })
        } catch {
            outcome = .failure(error)
        }
        do throws(StorageError) {
            try records.record(path: job.path, size: job.size, modified: job.modified, outcome: outcome)
        } catch {
            logger.warning("sound analysis: cannot record \(job.path): \(error.reason)")
        }
        if case .failure(.unreadable(let reason)) = outcome {
            logger.info("sound analysis: cannot read \(job.path): \(reason)")
        }
        // The line to log: the pass's closing one when it ended, else its progress when due.
        let (publishNow, line, ended, unavailable, watchers) = state.withLock {
            state -> (Bool, String?, Bool, String?, [CheckedContinuation<Void, Never>]) in
            state.inFlight -= 1
            var firstUnavailable: String?
            switch outcome {
            case .success(let analysis):
                state.catalog.set(analysis.features, loudness: analysis.loudness, for: job.sid)
                state.round?.measured += 1
                state.round?.audioSeconds += analysis.seconds
            case .failure(.unreadable):
                state.round?.unreadable += 1
                state.unreadable += 1
            case .failure(.unavailable(let reason)):
                if state.unavailable == nil { firstUnavailable = reason }
                state.unavailable = reason
                state.queue = []
            case .failure(.stopped):
                break
            }
            var line: String?
            var watchers: [CheckedContinuation<Void, Never>] = []
            let done = state.queue.isEmpty && state.inFlight == 0 && !state.surveyPending && !state.surveying
            if !done, state.round?.pace.isDue() == true {
                line = state.round?.progress()
            }
            if done {
                line = state.round?.closing(threads: workers)
                if let round = state.round { state.lastRound = round }
                state.round = nil
                watchers = state.idleWatchers
                state.idleWatchers = []
            }
            let due = state.lastPublish.map { $0.duration(to: .now) >= Self.publishInterval } ?? true
            return (done || due, line, done, firstUnavailable, watchers)
        }
        if let unavailable { logger.warning("sound analysis: not possible on this machine: \(unavailable)") }
        if publishNow { publish() }
        if let line {
            logger.info("\(line)")
            if ended { afterRound?() }
        }
        for watcher in watchers { watcher.resume() }
    }

    /// Builds the table of what is measured now for the library of the last schedule and
    /// hands it over.
    private func publish() {
        publishing.withLock { _ in
            let (library, catalog, publish) = state.withLock { state in
                state.lastPublish = .now
                return (state.library, state.catalog, state.publish)
            }
            guard let library, let publish else { return }
            publish(catalog.table(for: library))
        }
    }
}
