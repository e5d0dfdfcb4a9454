import Downloads

/// What ``RadioDownloads`` calls a download's failure in the log and the downloads view.
/// They are the command line's words (`DownloadText`); the composition root hands them in,
/// since this target makes no user-facing text of its own.
public struct DownloadWords: Sendable {
    /// A failure of a station's song (what to try is to download it again from the station).
    public var stationSong: @Sendable (DownloadError) -> String
    /// A failure of a link the listener gave (what to try is never the station).
    public var link: @Sendable (DownloadError) -> String
    /// Why a task failed or waits, in words for its origin; nil when it did neither.
    public var reason: @Sendable (DownloadTask) -> String?

    /// Words made by the three functions given.
    public init(stationSong: @escaping @Sendable (DownloadError) -> String,
                link: @escaping @Sendable (DownloadError) -> String,
                reason: @escaping @Sendable (DownloadTask) -> String?) {
        self.stationSong = stationSong
        self.link = link
        self.reason = reason
    }
}
