/// A song's start on a channel's air, as the broadcast logs it: a line of `aired.jsonl`
/// (``LiveArchive``). What aired.json lists (RadioAPI's `AiredSong`, its `end`, `url` and
/// `on_air`) is made from these and the segments kept, at each request
/// (``LiveProgramme``).
struct AiredRecord: Codable, Sendable, Equatable {
    /// The song's id.
    var sid: String
    /// Its title.
    var title: String
    /// Its artist.
    var artist: String
    /// When it started on the air, in milliseconds since the epoch: the middle of the
    /// crossfade it came in on, or its first sample when it did not fade in.
    var start: Int64
    /// Its declared length in milliseconds, less what an earlier run aired of it and half
    /// of each of its fades (the one it came in on, the one it is expected to go out on):
    /// where it is expected to end.
    var length: Int64

    /// Where it is expected to end (ms since the epoch): `start` plus `length`, the latest
    /// moment there is for a line whose numbers add past it.
    var expectedEnd: Int64 {
        let (sum, overflow) = start.addingReportingOverflow(length)
        return overflow ? (length < 0 ? .min : .max) : sum
    }
}
