import Store

/// Fetches one task's file: the seam between the manager (which decides) and the network
/// and disk. ``SongFetcher`` is the real one; unit tests of the manager use a fake.
public protocol DownloadFetcher: Sendable {
    /// Fetches `record`'s file, continuing from what is on disk, and reports the bytes on
    /// disk and the total (when known) as they grow. Returns when the file is complete and
    /// in place, when it failed, or — when the calling task is cancelled — stopped.
    func fetch(_ record: DownloadRecord, progress: @escaping @Sendable (Int64, Int64?) -> Void) async -> TransferOutcome

    /// Bytes already on disk for `record` (its partial file), for the list before it runs.
    func bytesOnDisk(_ record: DownloadRecord) -> Int64

    /// Asks the live recordings running now to finish with what they recorded. Returns
    /// whether one was asked that had not been before.
    func finishRecordings() -> Bool
}

extension DownloadFetcher {
    /// A fetcher without live recordings has none to finish.
    public func finishRecordings() -> Bool { false }
}
