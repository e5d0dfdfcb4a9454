import Store

/// The fetcher a manager runs: each task goes to the fetcher of its kind (a plain file to
/// ``SongFetcher``, an HLS stream to ``HLSFetcher``), so the two share one manager, one
/// set of states, events, commands and limits, and one layout of files on disk.
public struct MediaFetcher: DownloadFetcher {
    /// Plain files.
    public let files: SongFetcher
    /// HLS streams.
    public let streams: HLSFetcher

    /// Creates the router.
    public init(files: SongFetcher, streams: HLSFetcher) {
        self.files = files
        self.streams = streams
    }

    public func fetch(_ record: DownloadRecord, plan: HLSPlan?, progress: @escaping @Sendable (Int64, Int64?) -> Void) async
        -> TransferOutcome
    {
        switch record.kind {
        case .file: await files.fetch(record, plan: plan, progress: progress)
        case .hls: await streams.fetch(record, plan: plan, progress: progress)
        }
    }

    public func finishRecordings() -> Set<Int64> { streams.finishRecordings() }
}
