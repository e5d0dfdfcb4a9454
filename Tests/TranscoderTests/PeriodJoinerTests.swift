import Foundation
import Testing
import TestSupport
@testable import Transcoder

/// `PeriodJoiner` at its edges (what it refuses, what it leaves alone) and the MPEG-TS
/// continuity counters it carries over; joins of real HLS streams are tested through the
/// built mhz (`HLSDiscontinuityTests`).
@Suite struct PeriodJoinerTests {
    /// Two files one after the other in one, and where the second starts.
    static func concatenate(_ first: URL, _ second: URL, into output: URL) throws -> Int64 {
        let head = try Data(contentsOf: first)
        try (head + Data(contentsOf: second)).write(to: output)
        return Int64(head.count)
    }

    /// Two tones in `directory`, the first at 44.1 kHz and the second at 48 kHz (so it does
    /// not continue the first), of `seconds` each, one after the other in `joined`: its
    /// path and where the second starts.
    static func twoPeriods(_ first: String, _ second: String, joined: String, seconds: (Double, Double),
                           in directory: TemporaryDirectory) throws -> (url: URL, start: Int64) {
        try MediaTools.tone(at: directory.path(first), seconds: seconds.0)
        try MediaTools.tone(at: directory.path(second), seconds: seconds.1, rate: 48000)
        let url = directory.path(joined)
        return (url, try concatenate(directory.path(first), directory.path(second), into: url))
    }

    @Test("Periods that continue one another need nothing: no output is written")
    func continuous() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-transcoder")
        let whole = directory.path("whole.ts")
        try MediaTools.tone(at: whole, seconds: 3)
        let bytes = try Data(contentsOf: whole)
        // Cut on a packet boundary near the middle: one stream, its timestamps going on.
        let cut = Int64(bytes.count / 2 / 188 * 188)
        #expect(try PeriodJoiner.join(input: whole.path, periodStarts: [cut], output: directory.path("out.ts").path) == nil)
        #expect(try directory.contents() == ["whole.ts"])
    }

    @Test("An MP4 cannot have a period appended; the output is not left behind")
    func mp4() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-transcoder")
        let (joined, start) = try Self.twoPeriods("a.m4a", "b.m4a", joined: "joined.m4a", seconds: (1, 1), in: directory)
        #expect(throws: TranscodeError.unjoinable(.container("mov,mp4,m4a,3gp,3g2,mj2"))) {
            try PeriodJoiner.join(input: joined.path, periodStarts: [start], output: directory.path("out.m4a").path)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("out.m4a").path))
    }

    @Test("Period starts outside the file or out of order are refused")
    func badPeriods() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-transcoder")
        let file = directory.path("tone.ts")
        try MediaTools.tone(at: file, seconds: 1)
        for starts: [Int64] in [[0], [1880, 940], [1 << 40]] {
            #expect(throws: TranscodeError.unjoinable(.badPeriods)) {
                try PeriodJoiner.join(input: file.path, periodStarts: starts, output: directory.path("out.ts").path)
            }
        }
    }

    /// A TS packet of `pid` with counter `counter`, with a payload or (adaptation field
    /// only) without.
    static func packet(pid: UInt16, counter: UInt8, payload: Bool = true) -> [UInt8] {
        var bytes = [UInt8](repeating: 0xFF, count: 188)
        bytes[0] = 0x47
        bytes[1] = UInt8(pid >> 8) & 0x1F
        bytes[2] = UInt8(pid & 0xFF)
        bytes[3] = (payload ? 0x10 : 0x20) | counter
        return bytes
    }

    @Test("Appended packets' continuity counters go on from the kept ones', per PID")
    func continuityCounters() {
        var continuity = TSContinuity()
        let kept = [Self.packet(pid: 0, counter: 6), Self.packet(pid: 0x100, counter: 14), Self.packet(pid: 0x1000, counter: 3)]
        Array(kept.joined()).withUnsafeBytes { continuity.observe($0) }
        // A new muxer counts from 0; a packet without payload repeats the last counter.
        let appended = [Self.packet(pid: 0, counter: 0), Self.packet(pid: 0x100, counter: 0),
                        Self.packet(pid: 0x100, counter: 0, payload: false), Self.packet(pid: 0x100, counter: 1),
                        Self.packet(pid: 0x1000, counter: 0), Self.packet(pid: 0x101, counter: 5)]
        let bytes = Array(appended.joined())
        // Written in pieces that cut packets, as an AVIOContext's buffer does.
        var out: [UInt8] = []
        for start in stride(from: 0, to: bytes.count, by: 100) {
            out += bytes[start..<min(bytes.count, start + 100)].withUnsafeBytes { continuity.patch($0) }
        }
        #expect(continuity.remainder.isEmpty && out.count == bytes.count)
        let counters = stride(from: 0, to: out.count, by: 188).map { out[$0 + 3] & 0x0F }
        #expect(counters == [7, 15, 15, 0, 4, 5], "a PID the kept bytes lack keeps its own count")
        #expect(stride(from: 0, to: out.count, by: 188).allSatisfy { out[$0 + 3] & 0xF0 == bytes[$0 + 3] & 0xF0 })
    }
}
