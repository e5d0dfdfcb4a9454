import Foundation
@testable import Transcoder
import Testing
import TestSupport

/// A transcode's length is known before it is encoded and is exactly what comes out: over
/// inputs of odd lengths at every kind of rate (44.1 kHz and its padding byte, 48 and 32
/// kHz without, 22.05 and 11.025 kHz at MPEG-2 and 2.5, mono and stereo), the stream holds
/// `length` bytes, its frames (read back from their headers) are the ones that carry the
/// input, padded where LAME pads, and an MP3 decoder gets exactly that many frames of
/// samples back.
@Suite struct ExactLengthTests {
    /// An input: container, rate, channels, exact samples per channel.
    struct Input: Sendable, CustomTestStringConvertible {
        let format: String
        let rate: Int
        let channels: Int
        let samples: Int
        var testDescription: String { "\(samples) samples at \(rate) Hz ×\(channels) in \(format)" }
    }

    /// Among them, lengths where LAME's flush makes one frame more than carries the input
    /// (`(samples + 576) mod 1152` in 577…623 at MPEG-1, `(samples + 576) mod 576` in 1…47 at
    /// MPEG-2), and one sample (LAME's lone frame holds only the encoder's delay): taking that
    /// frame was what made libmp3lame log "Trying to remove 1152 samples, but the queue is
    /// empty", and would make the stream longer than announced.
    static let inputs: [Input] = [
        Input(format: "wav", rate: 44100, channels: 2, samples: 46_104),
        Input(format: "flac", rate: 48000, channels: 2, samples: 55_320),
        Input(format: "wav", rate: 22050, channels: 1, samples: 11_530),
        Input(format: "wav", rate: 44100, channels: 2, samples: 44_101),
        Input(format: "wav", rate: 44100, channels: 1, samples: 33_333),
        Input(format: "flac", rate: 44100, channels: 2, samples: 100_003),
        Input(format: "wav", rate: 48000, channels: 2, samples: 47_999),
        Input(format: "flac", rate: 48000, channels: 1, samples: 1),
        Input(format: "wav", rate: 48000, channels: 2, samples: 100),
        Input(format: "wav", rate: 32000, channels: 2, samples: 31_999),
        Input(format: "wav", rate: 22050, channels: 2, samples: 12_345),
        Input(format: "flac", rate: 22050, channels: 1, samples: 22_051),
        Input(format: "wav", rate: 11025, channels: 1, samples: 9_999),
        Input(format: "wav", rate: 44100, channels: 2, samples: 0),
        Input(format: "ogg", rate: 44100, channels: 2, samples: 77_777),
        Input(format: "m4a", rate: 48000, channels: 2, samples: 50_000),
        Input(format: "mp3", rate: 44100, channels: 2, samples: 60_000),
    ]

    /// libmp3lame's `initial_padding`: LAME's 576-sample encoder delay and a decoder's 529.
    static let initialPadding = 576 + 529

    @Test("length is the exact byte count: the frames carrying the input, padded as LAME pads, decoded back whole",
          arguments: inputs)
    func exact(_ input: Input) throws {
        let directory = try TemporaryDirectory(prefix: "mhz-transcoder")
        let file = directory.path("in.\(input.format)")
        try Self.write(input, to: file)
        let declared = input.format == "wav" || input.format == "flac"
        for kbps in [64, 128, 192] {
            let transcoder = try AudioTranscoder(input: file, kbps: kbps)
            let announced = transcoder.length
            let bytes = try AudioTranscoderTests.chunks(of: transcoder).flatMap { $0 }
            #expect(bytes.count == announced, "\(input.testDescription) at \(kbps)")

            let expectedSamples = Int((Double(input.samples) * Double(transcoder.sampleRate) / Double(input.rate)).rounded())
            if declared {
                #expect(transcoder.durationSamples == expectedSamples, "\(input.testDescription) at \(kbps)")
            } else {
                // Lossy containers declare their length to a codec frame or two: an MP3's
                // Xing header counts whole frames, its encoder's delay and padding included.
                #expect(abs(transcoder.durationSamples - expectedSamples) <= 2 * 1152, "\(transcoder.durationSamples)")
            }

            let stream = try MP3Stream(bytes)
            let frameSize = transcoder.sampleRate >= 32000 ? 1152 : 576
            let expectedFrames = transcoder.durationSamples == 0 ? 0
                : (transcoder.durationSamples + Self.initialPadding + frameSize - 1) / frameSize
            #expect(stream.frames.count == expectedFrames, "\(input.testDescription) at \(kbps)")
            #expect(stream.frames.allSatisfy { $0.kbps == kbps && $0.sampleRate == transcoder.sampleRate })
            #expect(stream.frames.map(\.padded) == Self.lamePadding(frames: stream.frames.count, kbps: kbps,
                                                                    rate: transcoder.sampleRate))

            // FFmpeg's mp3 demuxer refuses a stream of a single frame (it wants a second
            // header before it trusts the first), so that one is not decoded back.
            if kbps == 128, expectedFrames > 1 {
                let output = directory.path("out-\(kbps).mp3")
                try Data(bytes).write(to: output)
                #expect(try Self.decodedSamples(output) == expectedFrames * frameSize, "\(input.testDescription)")
            }
        }
    }

    @Test("The padding count of MP3FrameLayout is LAME's slot_lag loop, frame by frame",
          arguments: [(44100, 1152), (48000, 1152), (32000, 1152), (22050, 576), (24000, 576), (11025, 576)])
    func paddingRule(_ rate: Int, _ samplesPerFrame: Int) {
        for kbps in [32, 64, 96, 128, 160, 192, 320] {
            let layout = MP3FrameLayout(sampleRate: rate, kbps: kbps, samplesPerFrame: samplesPerFrame, initialPadding: 1105)
            let simulated = Self.lamePadding(frames: 500, kbps: kbps, rate: rate)
            #expect((0..<500).map { layout.isPadded(frame: $0) } == simulated, "\(kbps) kbit/s at \(rate) Hz")
            let slots = (samplesPerFrame == 1152 ? 144_000 : 72_000) * kbps / rate
            #expect(layout.bytes(ofFirst: 500) == 500 * slots + simulated.filter { $0 }.count)
        }
    }

    /// Which of the first `frames` frames LAME pads: its `lame_encode_mp3_frame`, run.
    static func lamePadding(frames: Int, kbps: Int, rate: Int) -> [Bool] {
        let version = rate >= 32000 ? 1 : 0
        let fraction = ((version + 1) * 72000 * kbps) % rate
        var slotLag = fraction
        return (0..<frames).map { _ in
            slotLag -= fraction
            guard slotLag < 0 else { return false }
            slotLag += rate
            return true
        }
    }

    /// Writes exactly `input.samples` samples of a tone.
    static func write(_ input: Input, to url: URL) throws {
        var arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                         "-i", "sine=frequency=440:sample_rate=\(input.rate)",
                         "-af", "atrim=end_sample=\(input.samples)", "-ac", "\(input.channels)", "-ar", "\(input.rate)"]
        switch input.format {
        case "ogg": arguments += ["-c:a", "libvorbis"]
        case "m4a": arguments += ["-c:a", "aac"]
        case "mp3": arguments += ["-c:a", "libmp3lame", "-b:a", "128k"]
        case "flac": arguments += ["-c:a", "flac"]
        default: break
        }
        _ = try MediaTools.run("ffmpeg", arguments + [url.path])
    }

    /// The samples per channel ffmpeg decodes from an MP3 (as 16-bit mono).
    static func decodedSamples(_ url: URL) throws -> Int {
        try MediaTools.run("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-i", url.path,
                                      "-f", "s16le", "-ac", "1", "-"]).count / 2
    }
}

/// An MP3 stream read back from its bytes: the ID3v2 tag skipped, then every frame by its
/// header, to the last byte (a stream that does not end on a frame's end is refused).
struct MP3Stream {
    struct Frame: Equatable {
        let kbps: Int
        let sampleRate: Int
        let padded: Bool
        let bytes: Int
    }

    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    let frames: [Frame]

    init(_ bytes: [UInt8]) throws {
        var offset = 0
        if bytes.count >= 10, bytes[0..<3].elementsEqual("ID3".utf8) {
            let size = bytes[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
            offset = 10 + size + (bytes[5] & 0x10 != 0 ? 10 : 0)
        }
        var frames: [Frame] = []
        while offset < bytes.count {
            guard offset + 4 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] & 0xE0 == 0xE0 else {
                throw Malformed(description: "no frame header at byte \(offset) of \(bytes.count)")
            }
            let version = Int(bytes[offset + 1] >> 3) & 3  // 3 MPEG-1, 2 MPEG-2, 0 MPEG-2.5
            let layer = Int(bytes[offset + 1] >> 1) & 3  // 1 is Layer III
            let bitrateIndex = Int(bytes[offset + 2] >> 4)
            let rateIndex = Int(bytes[offset + 2] >> 2) & 3
            let padded = bytes[offset + 2] & 0x02 != 0
            guard layer == 1, version != 1, (1...14).contains(bitrateIndex), rateIndex < 3 else {
                throw Malformed(description: "not a Layer III frame header at byte \(offset)")
            }
            let mpeg1 = version == 3
            let kbps = (mpeg1 ? [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
                              : [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160])[bitrateIndex]
            let rate = [3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000]][version]![rateIndex]
            let length = (mpeg1 ? 144_000 : 72_000) * kbps / rate + (padded ? 1 : 0)
            frames.append(Frame(kbps: kbps, sampleRate: rate, padded: padded, bytes: length))
            offset += length
        }
        guard offset == bytes.count else { throw Malformed(description: "the last frame runs past the end") }
        self.frames = frames
    }
}
