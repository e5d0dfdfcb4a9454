import Foundation
import Testing
import TestSupport
@testable import Transcoder

/// A transcode made at a gain: FFmpeg's `ebur128` filter hears the MP3 that gain louder or
/// quieter than the same song transcoded without one, the stream's length does not move,
/// and no gain (unity) gives the bytes of a transcode that was never given one.
@Suite struct LevelledTranscodeTests {
    /// Transcodes `input` at 128 kbit/s and `gain` into `output`: the bytes, and the
    /// length announced before them.
    static func transcode(_ input: URL, gain: FrameGain?, to output: URL) throws -> (bytes: [UInt8], announced: Int) {
        let transcoder = if let gain {
            try AudioTranscoder(input: input, kbps: 128, gain: gain)
        } else {
            try AudioTranscoder(input: input, kbps: 128)
        }
        let announced = transcoder.length
        let bytes = try AudioTranscoderTests.chunks(of: transcoder).flatMap { $0 }
        try Data(bytes).write(to: output)
        return (bytes, announced)
    }

    @Test("+6 and -6 dB are heard 6 LU louder and quieter than no gain; the length is the same, and unity is the plain transcode byte for byte",
          arguments: ["flac", "ogg", "mp3"])
    func sixDecibels(_ format: String) throws {
        let directory = try TemporaryDirectory(prefix: "mhz-levelled")
        let input = directory.path("in.\(format)")
        // A sine at −24 dBFS peak: +6 dB stays well below full scale.
        try MediaFactory.tone(at: input, seconds: 8, frequency: 1000, gainDB: -6)
        let plain = try Self.transcode(input, gain: nil, to: directory.path("plain.mp3"))
        let unity = try Self.transcode(input, gain: .unity, to: directory.path("unity.mp3"))
        let louder = try Self.transcode(input, gain: FrameGain(decibels: 6), to: directory.path("louder.mp3"))
        let quieter = try Self.transcode(input, gain: FrameGain(decibels: -6), to: directory.path("quieter.mp3"))

        #expect(unity.bytes == plain.bytes)
        for made in [plain, louder, quieter] {
            #expect(made.bytes.count == made.announced)
            #expect(made.announced == plain.announced)
        }
        let original = try LoudnessProbe.measure(input)
        let reference = try LoudnessProbe.measure(directory.path("plain.mp3"))
        let up = try LoudnessProbe.measure(directory.path("louder.mp3"))
        let down = try LoudnessProbe.measure(directory.path("quieter.mp3"))
        // LAME at 128 kbit/s takes 0.4 LU off a pure tone (so does `ffmpeg -c:a libmp3lame`
        // from the command line); the gain is measured against the plain transcode.
        #expect(abs(reference.integrated - original.integrated) < 0.6, "\(reference) for \(original)")
        #expect(abs(up.integrated - (reference.integrated + 6)) < 0.3, "\(up) for \(reference)")
        #expect(abs(down.integrated - (reference.integrated - 6)) < 0.3, "\(down) for \(reference)")
        #expect(abs(up.truePeak - (reference.truePeak + 6)) < 0.5, "\(up) for \(reference)")
    }

    @Test("a stereo file mixed down from 5.1 is levelled after the mix: the gain is heard whole")
    func afterTheDownmix() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-levelled")
        let input = directory.path("in.flac")
        try MediaFactory.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=500:duration=6",
                                        "-af", "volume=-12dB,pan=5.1|FL=c0|FR=c0|FC=c0|LFE=c0|BL=c0|BR=c0", input.path])
        _ = try Self.transcode(input, gain: nil, to: directory.path("plain.mp3"))
        _ = try Self.transcode(input, gain: FrameGain(decibels: -9.5), to: directory.path("quieter.mp3"))
        let reference = try LoudnessProbe.measure(directory.path("plain.mp3"))
        let down = try LoudnessProbe.measure(directory.path("quieter.mp3"))
        #expect(abs(down.integrated - (reference.integrated - 9.5)) < 0.3, "\(down) for \(reference)")
    }

    @Test("the factor is 10^(dB/20); numbers that are not a level are held or ignored")
    func factor() {
        #expect(FrameGain.unity.factor == 1 && FrameGain.unity.isUnity)
        #expect(abs(FrameGain(decibels: 6).factor - 1.99526) < 1e-4)
        #expect(abs(FrameGain(decibels: -6.3).factor - 0.48417) < 1e-4)
        #expect(FrameGain(decibels: .nan) == .unity)
        #expect(FrameGain(decibels: .infinity) == .unity)
        #expect(FrameGain(decibels: 500).decibels == 60)
        #expect(FrameGain(decibels: -1e300).decibels == -60)
    }

    @Test("16-bit samples are rounded and clamped at full scale, float ones scaled")
    func samples() {
        var shorts: [Int16] = [1000, -1000, 20000, -20000, 0]
        var floats: [Float] = [0.25, -0.5, 0.9]
        shorts.withUnsafeMutableBufferPointer { plane in
            if let start = plane.baseAddress { FrameGain(decibels: 6).scale(start, count: plane.count) }
        }
        floats.withUnsafeMutableBufferPointer { plane in
            if let start = plane.baseAddress { FrameGain(decibels: -6).scale(start, count: plane.count) }
        }
        #expect(shorts == [1995, -1995, 32767, -32768, 0])
        #expect(zip(floats, [0.12530, -0.25059, 0.45107]).allSatisfy { abs($0 - $1) < 1e-4 }, "\(floats)")
    }
}
