/// The downloads as front ends show them: the downloads view lists the items, the status
/// line counts the active ones, and the radio knows whether offline songs exist.
public struct DownloadsOverview: Sendable, Equatable {
    /// Every download, oldest first.
    public var items: [DownloadItem]
    /// Songs that can play offline (downloaded and not trashed).
    public var playable: Int

    /// Creates an overview.
    public init(items: [DownloadItem] = [], playable: Int = 0) {
        self.items = items
        self.playable = playable
    }

    /// Downloads queued, running or waiting.
    public var active: [DownloadItem] { items.filter { $0.state.isActive } }
}

/// One download as a row of the downloads view.
public struct DownloadItem: Sendable, Equatable {
    /// Its id (`mhz downloads pause ID`).
    public var id: Int64
    /// Title.
    public var title: String
    /// Artist.
    public var artist: String
    /// Where it stands.
    public var state: State
    /// Bytes on disk.
    public var bytes: Int64
    /// Full length, when known.
    public var total: Int64?
    /// Bytes per second while running.
    public var rate: Double
    /// Why it failed or waits, in words the composition root made.
    public var reason: String?

    /// Where a download stands (the download manager's states).
    public enum State: String, Sendable, Equatable {
        case queued, running, paused, waiting, completed, failed, canceled

        /// Whether it is on its way (queued, running, waiting).
        public var isActive: Bool { self == .queued || self == .running || self == .waiting }
    }

    /// Creates an item.
    public init(id: Int64, title: String, artist: String, state: State, bytes: Int64 = 0, total: Int64? = nil,
                rate: Double = 0, reason: String? = nil) {
        self.id = id
        self.title = title
        self.artist = artist
        self.state = state
        self.bytes = bytes
        self.total = total
        self.rate = rate
        self.reason = reason
    }
}
