import Foundation
import Testing
import TestSupport
@testable import Transcoder

/// What a live broadcast's segments cost on the wire: ``LiveEncoder``'s MPEG-TS packed as
/// a client can read it (one PAT and one PMT a segment, AAC frames gathered into few PES
/// packets) and no dearer than the bit rate a master playlist declares for its variant.
@Suite struct LiveSegmentWireTests {
    /// One file, played once; silence after it.
    final class OneSong: LiveAudioSource {
        private var file: URL?
        init(_ file: URL) { self.file = file }
        func nextInput() -> LiveInput? {
            defer { file = nil }
            return file.map { LiveInput(file: $0) }
        }
        func inputStarted(_ input: LiveInput, at sample: Int64, fadeIn: Int64) {}
        func inputFailed(_ input: LiveInput, error: TranscodeError) {}
    }

    /// The segments of `length` seconds (2 unless told) of `seconds` of the sound `lavfi`
    /// describes, each variant's.
    static func segments(of lavfi: String, seconds: Int, length: Int = 2, in directory: TemporaryDirectory) throws -> [LiveEncoder.Segment] {
        let song = directory.path("song.flac")
        _ = try MediaTools.run("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                                          "-i", lavfi, "-t", "\(seconds)", "-ac", "2", "-ar", "44100", song.path])
        // The broadcast's clock starts 2 s in, as a station's does.
        let first = Int64(2 * 44100)
        let encoder = try LiveEncoder(bitrates: [64, 128, 192], firstSample: first, source: OneSong(song))
        var segments: [LiveEncoder.Segment] = []
        // The last segment would be silence: the song fills all before it.
        for index in 1..<(seconds / length) {
            segments.append(try encoder.segment(endingAt: first + Int64(index * length) * 44100))
        }
        return segments
    }

    /// The PID of the packet at `offset`.
    static func pid(_ bytes: [UInt8], at offset: Int) -> UInt16 {
        let high = UInt16(bytes[offset + 1] & 0x1F)
        return high << 8 | UInt16(bytes[offset + 2])
    }

    /// The packets of `pid` in `bytes` (whole 188-byte packets).
    static func packets(_ bytes: [UInt8], pid: UInt16) -> Int {
        stride(from: 0, to: bytes.count, by: 188).filter { Self.pid(bytes, at: $0) == pid }.count
    }

    /// The PMT's PID, from the PAT's first program (ISO/IEC 13818-1 §2.4.4.3).
    static func pmtPID(_ bytes: [UInt8]) -> UInt16? {
        guard let pat = stride(from: 0, to: bytes.count, by: 188).first(where: { pid(bytes, at: $0) == 0 }) else { return nil }
        // Header 4, pointer field (0), table id 1, length 2, ts id 2, version 1, numbers 2,
        // then program_number 2 and the PID.
        let program = pat + 5 + Int(bytes[pat + 4]) + 8
        return pid(bytes, at: program + 1)
    }

    /// How many PES packets start in `bytes` on `pid` (payload_unit_start_indicator).
    static func pesStarts(_ bytes: [UInt8], pid: UInt16) -> Int {
        stride(from: 0, to: bytes.count, by: 188).filter { Self.pid(bytes, at: $0) == pid && bytes[$0 + 1] & 0x40 != 0 }.count
    }

    @Test("the 64 kbit/s variant costs at most 80 kbit/s on the wire: one PAT and one PMT a segment, frames packed into few PES packets; ffprobe reads them without a word")
    func packed() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-live-wire")
        defer { directory.remove() }
        let segments = try Self.segments(of: "anoisesrc=color=pink:amplitude=0.5:seed=7", seconds: 12, in: directory)
        #expect(segments.count == 5)
        var joined: [UInt8] = []
        for segment in segments {
            let bytes = segment.variants[0]
            let rate = Double(bytes.count * 8) / segment.duration
            #expect(rate <= 80_000, "\(bytes.count) bytes in \(segment.duration) s: \(Int(rate)) bit/s")
            #expect(Self.packets(bytes, pid: 0) == 1)
            let pmt = try #require(Self.pmtPID(bytes))
            #expect(Self.packets(bytes, pid: pmt) == 1)
            // About 86 frames of ~190 bytes in PES packets of at most 2930 bytes: 6 or 7.
            #expect(Self.pesStarts(bytes, pid: 0x100) <= 8, "\(Self.pesStarts(bytes, pid: 0x100)) PES packets")
            joined += bytes
        }
        let file = directory.path("joined.ts")
        try Data(joined).write(to: file)
        let probe = try Tool.run("ffprobe", ["-v", "warning", "-show_entries", "packet=pts", "-of", "csv=p=0", file.path])
        #expect(probe.status == 0)
        #expect(probe.errors.isEmpty, "\(probe.errors)")
        // Every frame of the five segments is there: 2 s of 1024-sample frames each.
        #expect(probe.text.split(separator: "\n").count >= 5 * 86)
    }

    @Test("no segment of any variant costs more than the BANDWIDTH declared for it, at 2 s and 1 s segments; the dearest 2 s segments come within 10 % of it")
    func declared() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-live-wire")
        defer { directory.remove() }
        // Noise, a tone, silence, and a chirp over noise in one channel (what the encoder
        // found dearest of these).
        let sounds = ["anoisesrc=color=white:amplitude=1:seed=3", "sine=frequency=440", "anullsrc",
                      "aevalsrc=sin(2*PI*t*t*500)*0.5+0.3*random(0)|sin(2*PI*t*t*300)*0.5"]
        for length in [2, 1] {
            var dearest = [0.0, 0.0, 0.0]
            for sound in sounds {
                for segment in try Self.segments(of: sound, seconds: 12, length: length, in: directory) {
                    for (variant, kbps) in [64, 128, 192].enumerated() {
                        let rate = Double(segment.variants[variant].count * 8) / segment.duration
                        let declared = LiveBandwidth.peak(kbps: kbps, segmentSeconds: Double(length))
                        #expect(rate <= Double(declared), "\(sound) at \(kbps) kbit/s in \(length) s: \(Int(rate)) > \(declared)")
                        dearest[variant] = max(dearest[variant], rate)
                    }
                }
            }
            guard length == 2 else { continue }
            for (variant, kbps) in [64, 128, 192].enumerated() {
                let declared = Double(LiveBandwidth.peak(kbps: kbps, segmentSeconds: 2))
                #expect(dearest[variant] >= declared / 1.1, "\(kbps): \(Int(dearest[variant])) of \(Int(declared)) declared")
            }
        }
    }
}
