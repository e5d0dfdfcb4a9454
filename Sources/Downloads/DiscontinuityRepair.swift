/// Makes one stream out of a finished HLS download whose periods — the runs of segments
/// between `EXT-X-DISCONTINUITY` tags — do not continue one another: another codec, sample
/// rate or channel count after an ad break, or timestamps that start again. Appended as
/// they came, such a file stops decoding at the first change or plays shorter than it is.
///
/// The downloads layer knows where each period starts in the file (it records the offset
/// with each append) but not what is inside; the composition root gives an implementation
/// that does (FFmpeg's). It runs once, on the complete partial file, before the rename into
/// place, so the partial file stays the byte-for-byte resumable result of the segments.
public protocol DiscontinuityRepair: Sendable {
    /// Writes to `output` one stream made of `input`, whose periods after the first start
    /// at the byte offsets `periodStarts`, when they need it; leaves `input` as it is.
    /// Blocking: it decodes and encodes what differs.
    func repair(_ input: String, periodStarts: [Int64], output: String) -> PeriodRepair
}

/// What a ``DiscontinuityRepair`` did.
public enum PeriodRepair: Sendable, Equatable {
    /// Every period continues the first: the file is kept as it came, nothing written.
    case notNeeded
    /// `output` holds the stream: the first `keptBytes` of the input unchanged, then the
    /// other periods, `retimed` of them copied with new timestamps and `reencoded` of them
    /// re-encoded in the first period's codec.
    case repaired(keptBytes: Int64, retimed: Int, reencoded: Int)
    /// The periods cannot be joined (`reason`, for the log): the file is kept as it came.
    case failed(reason: String)
}
