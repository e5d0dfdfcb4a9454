import Store

/// Fetches one task's file and knows where its bytes lie: the seam between the manager
/// (which decides) and the network and disk. ``MediaFetcher`` is the real one; unit tests
/// of the manager use a fake.
public protocol DownloadFetcher: Sendable {
    /// Fetches `record`'s file, continuing from what is on disk, and reports the bytes on
    /// disk and the total (when known) as they grow. `plan` is an HLS stream's plan made
    /// before the task was added (the command line reads the playlist first): it is
    /// followed instead of reading the playlist again. Returns when the file is complete
    /// and in place, when it failed, or — when the calling task is cancelled — stopped.
    func fetch(_ record: DownloadRecord, plan: HLSPlan?, progress: @escaping @Sendable (Int64, Int64?) -> Void) async
        -> TransferOutcome

    /// Bytes already on disk for `record` (its partial file), for the list before it runs.
    func bytesOnDisk(_ record: DownloadRecord) -> Int64

    /// Whether a download finished at `path` is there.
    func isFinished(_ path: String) -> Bool

    /// Whether a new download may not be written to `path`: something of another one (its
    /// finished or partial file) is there.
    func isTaken(_ path: String) -> Bool

    /// Deletes what a download to `path` left on the way (its partial file and pieces), and
    /// its finished file too when `finished`.
    func removeFiles(of path: String, finished: Bool)

    /// Asks the live recordings running now to finish with what they recorded. Returns
    /// the tasks asked now (none when every recording had been asked before).
    func finishRecordings() -> Set<Int64>
}

extension DownloadFetcher {
    /// A fetcher without live recordings has none to finish.
    public func finishRecordings() -> Set<Int64> { [] }

    // This module's fetchers lay their files out as ``DownloadFiles`` says.

    /// The partial file's length, else the finished file's.
    public func bytesOnDisk(_ record: DownloadRecord) -> Int64 { DownloadFiles(record.path).bytesOnDisk }
    /// Whether `path` is there.
    public func isFinished(_ path: String) -> Bool { DownloadFiles(path).isFinished }
    /// Whether `path` or its partial file is there.
    public func isTaken(_ path: String) -> Bool { DownloadFiles(path).isTaken }
    /// Deletes the partial file, the hidden tagging file, the HLS pieces and, when
    /// `finished`, `path`.
    public func removeFiles(of path: String, finished: Bool) { DownloadFiles(path).remove(finished: finished) }
}
