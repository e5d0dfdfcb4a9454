import Backoff
import Foundation
import HLSPlaylist
import HTTP
import Logging
import Store
import Synchronization

/// Downloads an HLS stream into one playable file: the chosen variant's segments fetched
/// several at a time (over the client's reused connections), decrypted, and appended in
/// playlist order to `PATH.part`, which is renamed to `PATH` when the last one is in.
///
/// After each append the task's ``HLSProgress`` row records the next media sequence number
/// and the bytes the file should hold; a resume (after a pause, a failure or a `kill -9`)
/// cuts the file back to those bytes and continues there, and a segment fetched halfway
/// continues by `Range` from its own file (`PATH.part-seqN`, see ``DownloadFiles``). The
/// result is byte for byte what an uninterrupted download gives.
///
/// A live playlist (no `EXT-X-ENDLIST`) is recorded from the oldest segment it lists,
/// reloaded as RFC 8216 §6.3.4 says, until the task's ``DownloadRecord/recordSeconds``
/// of media are in, the stream ends, or ``finishRecordings()`` is called (Ctrl-C).
///
/// Where a segment after an `EXT-X-DISCONTINUITY` lands in the partial file is recorded in
/// the progress row; when the last segment is in, a ``DiscontinuityRepair`` (when given)
/// makes the periods one stream in `PATH.part-joined`, which is renamed into place instead.
public final class HLSFetcher: DownloadFetcher {
    /// The client playlists, keys and segments go through.
    let http: HTTPClient
    /// Where each task's ``HLSProgress`` row is kept.
    let store: any HLSProgressStore
    /// Segments fetched at once per task.
    let segmentConcurrency: Int
    /// The variant of tasks that did not ask for one.
    let defaultQuality: VariantQuality
    /// Fetches each segment into its piece.
    let segments: SegmentFetcher
    /// Joins a finished file's periods when they do not continue one another.
    let repair: (any DiscontinuityRepair)?
    private let logger: Logger
    private let finishing = Mutex<Set<Int64>>([])
    /// The tasks following a live playlist now: the recordings ``finishRecordings()`` finishes.
    /// A finished playlist's download is none, so the first Ctrl-C stops it at once.
    private let recording = Mutex<Set<Int64>>([])

    /// Creates a fetcher. A segment's transfer stalls after `stallTimeout` seconds without a
    /// byte, and a segment is tried `segmentAttempts` times with `segmentBackoff` between;
    /// `segmentConcurrency` segments are fetched at once; `defaultQuality` picks a variant
    /// for tasks that did not ask for one; `repair` joins the periods of a finished file
    /// (without one, they are kept as they came).
    public init(http: HTTPClient, store: any HLSProgressStore, stallTimeout: Double = 30, segmentConcurrency: Int = 4,
                defaultQuality: VariantQuality = .best, segmentAttempts: Int = 5,
                segmentBackoff: Backoff = Backoff(initial: 0.5, cap: 8, jitter: 0.2),
                repair: (any DiscontinuityRepair)? = nil, logger: Logger = Logger(label: "mhz.downloads")) {
        self.http = http
        self.store = store
        self.segmentConcurrency = max(1, segmentConcurrency)
        self.defaultQuality = defaultQuality
        self.segments = SegmentFetcher(http: http, stallTimeout: stallTimeout, attempts: max(1, segmentAttempts),
                                       backoff: segmentBackoff)
        self.repair = repair
        self.logger = logger
    }

    /// Asks every live recording running now to stop reloading and keep what it recorded
    /// (as a finished file). Returns the ones running and not asked before.
    public func finishRecordings() -> Set<Int64> {
        let live = recording.withLock { $0 }
        return finishing.withLock { asked in
            let new = live.subtracting(asked)
            asked.formUnion(new)
            return new
        }
    }

    /// Fetches `record`'s stream, following `plan` when the caller already read its playlist
    /// and no earlier attempt recorded which media playlist it follows.
    public func fetch(_ record: DownloadRecord, plan: HLSPlan?, progress: @escaping @Sendable (Int64, Int64?) -> Void) async
        -> TransferOutcome
    {
        await DownloadFiles(record.path).withLockedPart { fd in
            let id = record.id ?? 0
            defer {
                recording.withLock { _ = $0.remove(id) }
                finishing.withLock { _ = $0.remove(id) }
            }
            var job = HLSJob(fetcher: self, record: record, plan: plan, descriptor: fd, progress: progress)
            return await job.run()
        }
    }

    /// Notes that task `id` follows a live playlist (a recording), once its job has read it.
    func noteRecording(_ id: Int64) { recording.withLock { _ = $0.insert(id) } }

    /// Whether the user asked recording `id` to finish.
    func isFinishing(_ id: Int64) -> Bool { finishing.withLock { $0.contains(id) } }

    /// Writes `message` to the log (what a task does not say by its state).
    func log(_ message: String) { logger.notice("\(message)") }
}
