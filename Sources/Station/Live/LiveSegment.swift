/// One segment of a channel's broadcast as its playlists list it: the same sequence
/// number, start and length in every variant.
struct LiveSegment: Codable, Sendable, Equatable {
    /// Its media sequence number: one more than the segment before it, across stops and
    /// restarts of the station.
    var sequence: Int
    /// When its audio starts, in milliseconds since the epoch (`EXT-X-PROGRAM-DATE-TIME`).
    var start: Int64
    /// Its length in seconds (`EXTINF`).
    var duration: Double
    /// "artist - title" of the song at its start (`EXTINF`'s title).
    var title: String
    /// Whether the audio before it was interrupted (a stop or a restart):
    /// `EXT-X-DISCONTINUITY` before it.
    var discontinuity: Bool
    /// How many discontinuities the broadcast has had up to this segment, its own
    /// included: a playlist starting here says so in `EXT-X-DISCONTINUITY-SEQUENCE`.
    var era: Int
    /// Where the broadcast's audio stood at its end: what a run started after it goes on
    /// from. `nil` in a line written before the broadcast kept it.
    var cue: LiveCue?

    /// When its audio ends, in milliseconds since the epoch.
    var end: Int64 { start + Int64((duration * 1000).rounded()) }

    /// Whether its numbers are ones a broadcast writes: none negative, a length of at most
    /// an hour, the rest far from the ends of 64 bits. A line of `segments.jsonl` damaged or
    /// edited to hold others is skipped when read, since the next run goes on from the last
    /// segment's sequence, era and clock, and ``end`` adds its length to its start.
    var isPlausible: Bool {
        let limit = Int64.max / 4
        guard sequence >= 0, Int64(sequence) < limit, era >= 0, Int64(era) < limit, start >= 0, start < limit,
              duration.isFinite, duration >= 0, duration <= 3600 else { return false }
        guard let cue else { return true }
        return cue.clock >= 0 && cue.clock < limit && cue.offset >= 0 && cue.offset < limit
    }
}

/// Where a broadcast's audio stood at the end of a segment, kept in the segment's line so
/// that the next run (after the station's restart, even after a `kill -9`) goes on from
/// the last segment published: the same sample clock, so the timestamps continue, and the
/// song that was on the air, from where it was.
struct LiveCue: Codable, Sendable, Equatable {
    /// The sample the segment's audio ends at on the broadcast's clock (44.1 kHz).
    var clock: Int64
    /// The song under way at that moment; `nil` when none was (silence).
    var sid: String?
    /// How far into that song the moment is, in milliseconds.
    var offset: Int64
}
