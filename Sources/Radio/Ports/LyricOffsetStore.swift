/// Where the listener's lyric nudges are kept, per song of the station playing: the port
/// the composition root fills with mhz's database.
public protocol LyricOffsetStore: Sendable {
    /// The nudge kept for `sid`, in seconds (positive shows lines earlier); 0 when none.
    func lyricNudge(sid: String) throws(StorageFailure) -> Double
    /// Keeps the nudge for `sid`; 0 forgets it.
    func setLyricNudge(_ seconds: Double, sid: String) throws(StorageFailure)
}
