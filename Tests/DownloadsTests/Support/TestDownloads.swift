import Backoff
import Foundation
import HTTP
import Store
@testable import Downloads

/// The one builder of a real ``DownloadManager`` for the tests: the real fetchers of both
/// kinds (``SongFetcher`` and ``HLSFetcher`` behind a ``MediaFetcher``, as `mhz` builds
/// them) over one libcurl client that does not retry by itself, with waits short enough
/// for a test: a stall is one after 5 s (or `stallTimeout`), and a failed segment is tried again after 50 ms
/// rather than half a second.
enum TestDownloads {
    /// A manager over `database` writing under `directory`; at most `maxConcurrent` tasks
    /// fetch at once (0: a control manager that changes tasks and runs none), each HLS task
    /// `segmentConcurrency` segments at once, each tried `segmentAttempts` times; `repair`
    /// joins a finished stream's periods; a transfer that receives nothing for `stallTimeout`
    /// seconds has stalled.
    static func manager(_ database: MhzDatabase, directory: URL, maxConcurrent: Int = 2, segmentConcurrency: Int = 4,
                        segmentAttempts: Int = 5, repair: (any DiscontinuityRepair)? = nil,
                        stallTimeout: Double = 5) -> DownloadManager {
        let http = HTTPClient(configuration: .init(retry: .never))
        let streams = HLSFetcher(http: http, store: database, stallTimeout: stallTimeout, segmentConcurrency: segmentConcurrency,
                                 segmentAttempts: segmentAttempts, segmentBackoff: Backoff(initial: 0.05, cap: 0.2),
                                 repair: repair)
        return DownloadManager(store: database, fetcher: MediaFetcher(files: SongFetcher(http: http, stallTimeout: stallTimeout),
                                                                      streams: streams),
                               directory: directory, configuration: .init(maxConcurrent: maxConcurrent))
    }
}
