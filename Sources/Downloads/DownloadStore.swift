import Store

/// Where a ``DownloadManager`` keeps its tasks' rows: the port that lets it run without
/// knowing the database. mhz's ``MhzDatabase`` is the real one; the manager's unit tests
/// keep rows in memory.
public protocol DownloadStore: Sendable {
    /// Every task's row, oldest first.
    func downloads() throws(StoreError) -> [DownloadRecord]
    /// Stores a new row and returns it with the id it was given.
    func insertDownload(_ record: DownloadRecord) throws(StoreError) -> DownloadRecord
    /// Replaces a row.
    func updateDownload(_ record: DownloadRecord) throws(StoreError)
    /// Deletes a row (and what hangs on it, such as its ``HLSProgress``).
    func deleteDownload(id: Int64) throws(StoreError)
}

/// Where an ``HLSFetcher`` keeps how far each stream got: one ``HLSProgress`` row per task,
/// written only by the fetcher, so the manager's saves of the task never overwrite it.
public protocol HLSProgressStore: Sendable {
    /// How far the task's stream got, if it started.
    func hlsProgress(downloadID: Int64) throws(StoreError) -> HLSProgress?
    /// Records how far it got (after each appended segment).
    func saveHLSProgress(_ progress: HLSProgress) throws(StoreError)
    /// Forgets how far it got: its next attempt starts from the first segment.
    func deleteHLSProgress(downloadID: Int64) throws(StoreError)
}

extension MhzDatabase: DownloadStore, HLSProgressStore {}
