import Foundation
@testable import Station
import Testing
import TestSupport

/// A channel's broadcast as it is read back from disk after a restart.
@Suite("Live archive")
struct LiveArchiveTests {
    @Test("a line whose numbers no broadcast writes is skipped when read, so the next run cannot overflow on it")
    func implausibleLinesAreSkipped() throws {
        let folder = try TemporaryDirectory(prefix: "mhz-live-archive")
        defer { folder.remove() }
        let archive = LiveArchive(directory: folder.url, bitrates: [64])
        let good = LiveSegment(sequence: 7, start: 1_700_000_000_000, duration: 2, title: "A - B", discontinuity: false,
                               era: 0, cue: LiveCue(clock: 96_000, sid: "1", offset: 4))
        var written = [good]
        var sequence = good
        sequence.sequence = .max
        written.append(sequence)
        var start = good
        start.sequence = 8
        start.start = .max
        written.append(start)
        var duration = good
        duration.sequence = 9
        duration.duration = 1e300
        written.append(duration)
        var clock = good
        clock.sequence = 10
        clock.cue?.clock = .max
        written.append(clock)
        var era = good
        era.sequence = 11
        era.era = -1
        written.append(era)
        var next = good
        next.sequence = 12
        next.start = good.end
        written.append(next)
        // Each line is written with its file, as the broadcast writes them.
        for segment in written { try archive.append(segment, variants: [[0x47]]) }
        #expect(archive.load().segments == [good, next])
    }
}
