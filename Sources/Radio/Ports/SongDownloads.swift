/// Downloads as the radio needs them: the radio declares this port, as it declares
/// ``AudioPlayer``, and the composition root implements it over the download manager.
///
/// Calls return at once: a download runs beside the radio, and what it does comes back
/// as ``RadioInput/downloadsChanged(_:)``.
public protocol SongDownloads: Sendable {
    /// Downloads `track`, which plays on `channel` (a song downloaded or on its way is not
    /// fetched twice).
    func download(_ track: Track, channel: String)
    /// Pauses, resumes, cancels or retries download `id`.
    func control(_ action: DownloadAction, id: Int64)
    /// The downloaded songs that may play offline, shuffled: `file://` URLs, never a
    /// trashed song. Each carries the channel it was downloaded from.
    func offlineTracks() -> [Track]
    /// Remembers that the listener trashed `sid`, so offline listening never plays it and
    /// the radio never starts it again.
    func trashed(sid: String)
    /// Every song the listener trashed on this station, read once at start.
    func trashedSids() -> Set<String>
}
