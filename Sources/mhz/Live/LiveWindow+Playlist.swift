import Foundation
import HLSPlaylist
import Radio

extension LiveWindow {
    /// The window a live channel's media playlist lists (docs/PROTOCOL.md §11): its first
    /// segment's start, the start of the third from the end (where a player joining now
    /// begins), and its newest segment's end, each from the segments' dates. Nil when it
    /// lists no segment, one without `EXT-X-PROGRAM-DATE-TIME`, or a moment whose
    /// milliseconds do not fit in 64 bits: the station's dates and durations are worked
    /// out checked (`script/fuzz live` reads any playlist through here).
    init?(playlist media: MediaPlaylist) {
        var dated: [(start: Int64, duration: Int64)] = []
        for segment in media.segments {
            guard let date = segment.programDateTime,
                  let start = Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded()),
                  let duration = Int64(exactly: (segment.duration * 1000).rounded())
            else { return nil }
            dated.append((start, duration))
        }
        guard let first = dated.first, let last = dated.last else { return nil }
        let (newestEnd, overflow) = last.start.addingReportingOverflow(last.duration)
        guard !overflow else { return nil }
        self.init(firstStart: first.start, joinStart: dated[max(0, dated.count - 3)].start, newestEnd: newestEnd)
    }
}
