import Adapters
import Settings
import Downloads
import Foundation
import HTTP
import Logging
import Radio
import RadioAPI
import Store

/// Builds the download manager the same way for every command (`mhz`, `mhz download`,
/// `mhz downloads`), and turns what the radio knows of a song into a download request.
enum DownloadSetup {
    /// A manager over `database`, writing to the configured folder. Media requests go
    /// through a client of their own: no cookies (media hosts are not the station), the
    /// configured proxy, TLS and User-Agent. `control` makes a manager that changes tasks
    /// but runs none (`mhz downloads pause …`).
    static func manager(paths: Paths, config: Config, database: MhzDatabase, control: Bool = false) -> DownloadManager {
        let http = HTTPClient(configuration: RadioRuntime.httpConfiguration(config))
        let settings = config.downloads
        let logger = Logger(label: "mhz.downloads")
        let stallTimeout = settings.stallTimeout ?? DownloadSettings.defaultStallTimeout
        let files = SongFetcher(http: http, stallTimeout: stallTimeout, tagger: TagLibSongTagger(), logger: logger)
        let streams = HLSFetcher(http: http, store: database, stallTimeout: stallTimeout,
                                 segmentConcurrency: settings.segmentConcurrency ?? DownloadSettings.defaultSegmentConcurrency,
                                 defaultQuality: settings.quality ?? DownloadSettings.defaultQuality,
                                 repair: PeriodJoinRepair(), logger: logger)
        let fetcher = MediaFetcher(files: files, streams: streams)
        var machine = DownloadMachine.Configuration(maxConcurrent: settings.maxConcurrent ?? DownloadSettings.defaultMaxConcurrent)
        if control { machine.maxConcurrent = 0 }
        return DownloadManager(store: database, fetcher: fetcher, directory: settings.folder(paths: paths),
                               configuration: machine)
    }

    /// The request for a station's song.
    static func request(_ track: Track, channel: String?, station: String) -> DownloadRequest {
        DownloadRequest(track, channel: channel, station: station)
    }

    /// The request for the song a running (or the last) mhz saved as playing.
    static func request(_ position: PositionRecord, station: String) -> DownloadRequest {
        DownloadRequest(url: position.url, title: position.title, artist: position.artist, album: position.album,
                        sid: position.sid, channel: position.channel, station: station)
    }
}
