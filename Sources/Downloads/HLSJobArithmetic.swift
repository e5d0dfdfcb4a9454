import Foundation
import HLSPlaylist

/// The numbers an HLS transfer (``HLSJob``) works out from others' numbers: the playlist's
/// sequence numbers and durations, the recording length asked for, and the progress row
/// read back from the database. Pure and checked: none of them may trap, whatever the
/// playlist or the row says (`script/fuzz download` runs them on any playlist).
enum HLSJobArithmetic {
    /// Whether a stored progress row holds numbers appends could have written: counts and
    /// bytes not below 0, the count far from overflowing as appends add 1 to it, seconds
    /// of media a finite number, and period starts inside the bytes. A row that does not is
    /// not trusted (the download starts again).
    static func isPlausible(segmentsDone: Int, bytes: Int64, recordedSeconds: Double, periodStarts: [Int64]) -> Bool {
        (0..<Int.max / 2).contains(segmentsDone) && bytes >= 0 && recordedSeconds.isFinite && recordedSeconds >= 0
            && periodStarts.allSatisfy { (0...bytes).contains($0) }
    }

    /// The segments of `playlist` still to append: those from `next` on and, for a live
    /// recording limited to `limit` seconds with `recorded` done, as many as reach it.
    static func pending(_ playlist: MediaPlaylist, from next: Int, recorded: Double, limit: Double?) -> [Segment] {
        let pending = playlist.segments.filter { $0.sequence >= next }
        guard playlist.isLive, let limit else { return pending }
        var seconds = recorded
        return Array(pending.prefix { segment in
            defer { seconds += segment.duration }
            return seconds < limit
        })
    }

    /// How many segments a live playlist dropped before they were appended: from `next` to
    /// its first, `first`; `Int.max` when the distance does not fit.
    static func missed(first: Int, next: Int) -> Int {
        let (missed, overflow) = first.subtractingReportingOverflow(next)
        return overflow ? Int.max : max(0, missed)
    }

    /// The wait before a live playlist is read again (RFC 8216 §6.3.4): its target duration
    /// (else its last segment's, else 6 s) once it changed, half of it while it did not;
    /// held within 0 and ``MediaPlaylist/longestDuration``.
    static func reloadWait(_ playlist: MediaPlaylist, unchangedReloads: Int) -> Duration {
        let target = playlist.targetDuration ?? playlist.segments.last?.duration ?? 6
        return milliseconds(unchangedReloads > 0 ? target / 2 : target)
    }

    /// `seconds` as a whole number of milliseconds, held within 0 and
    /// ``MediaPlaylist/longestDuration`` (a value that is not a number is 0).
    static func milliseconds(_ seconds: Double) -> Duration {
        let held = seconds.isNaN ? 0 : min(max(seconds, 0), MediaPlaylist.longestDuration)
        return .milliseconds(Int(exactly: (held * 1000).rounded()) ?? 0)
    }

    /// The file's length, estimated from the bytes per second of media so far (`bytes` for
    /// `recorded` seconds) over `seconds` of media in all; nil when there is nothing to go
    /// on or the estimate does not fit in 64 bits.
    static func estimate(bytes: Int64, recorded: Double, of seconds: Double?) -> Int64? {
        guard recorded > 0, let seconds, seconds > 0 else { return nil }
        guard let estimate = Int64(exactly: (Double(bytes) / recorded * seconds).rounded(.down)) else { return nil }
        return max(bytes, estimate)
    }
}
