import MusicLibrary

/// How a run of a broadcast begins, told from the last segment the runs before it
/// published (kept on disk, so after a stop, a restart or a `kill -9` alike):
///
/// - its first segment is dated back so the first ``LiveConfiguration/prefill`` segments
///   are due at once, but never before the last segment's end: the times only go forward;
/// - its sample clock goes on from the last segment's ``LiveCue``, so the timestamps
///   continue;
/// - a run that starts the moment the last segment ended (a restart quicker than the
///   prefill) continues it without a break: no `EXT-X-DISCONTINUITY`, and the song on the
///   air goes on as the same song aired;
/// - otherwise, the song that was on the air is aired again from where it was.
///
/// A song no longer in the library, or at its last second, is not taken up: the run
/// begins with a new one.
struct LiveRunStart: Equatable {
    /// When the run's first segment starts, in milliseconds since the epoch.
    var start: Int64
    /// The sample the run's first segment starts at on the broadcast's clock; `nil` for a
    /// clock started afresh (nothing before, or a segment without a cue).
    var clock: Int64?
    /// Whether the run continues the last segment without a break.
    var continues: Bool
    /// The song to take up again, and from where.
    var resumed: Resumed?

    /// A song taken up again part-way.
    struct Resumed: Equatable {
        /// Its id.
        var sid: String
        /// Where to take it up, in milliseconds from its start.
        var offset: Int64
    }

    /// How a run begins at `now` (ms since the epoch) after `last`, the last segment
    /// published (if any), its first segments dated back by `datedBack` milliseconds;
    /// `length(sid)` is a song's length in milliseconds, `nil` for a song the library no
    /// longer has.
    static func after(_ last: LiveSegment?, now: Int64, datedBack: Int64, length: (String) -> Int64?) -> LiveRunStart {
        let lastEnd = last?.end ?? 0
        let start = max(now - datedBack, lastEnd)
        // A clock read from disk is taken only within reason: a run's clock begins two
        // seconds in, and some centuries of samples keep the arithmetic far from overflow.
        guard let cue = last?.cue, cue.clock >= 0, cue.clock < 1 << 50 else {
            return LiveRunStart(start: start, clock: nil, continues: false, resumed: nil)
        }
        let continues = start == lastEnd
        var resumed: Resumed?
        if let sid = cue.sid, let songLength = length(sid), songLength > 1000, cue.offset >= 0, cue.offset < songLength - 1000 {
            resumed = Resumed(sid: sid, offset: cue.offset)
        }
        return LiveRunStart(start: start, clock: cue.clock, continues: continues, resumed: resumed)
    }

    /// A track's length in milliseconds, `nil` for one that cannot be that long.
    static func milliseconds(of track: LibraryTrack) -> Int64? {
        let (value, overflow) = Int64(track.durationSeconds).multipliedReportingOverflow(by: 1000)
        return overflow ? nil : value
    }
}
