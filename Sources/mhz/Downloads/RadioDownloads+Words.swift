import Adapters
import Downloads
import Logging
import Store

extension DownloadWords {
    /// The command line's words for downloads (``DownloadText``).
    static let terminal = DownloadWords(stationSong: { DownloadText.describe($0, origin: .station) },
                                        link: { DownloadText.describe($0) },
                                        reason: { DownloadText.reason($0) })
}

extension RadioDownloads {
    /// A port for songs of `station`, its failures in the command line's words.
    convenience init(manager: DownloadManager, database: MhzDatabase, station: String,
                     logger: Logger = Logger(label: "mhz.downloads")) {
        self.init(manager: manager, database: database, station: station, words: .terminal, logger: logger)
    }
}
