import Foundation
import Testing
import TestSupport
import Transcoder

/// Real files made by the ffmpeg command line, transcoded through the streaming API, and
/// read back by ffprobe.
@Suite struct AudioTranscoderTests {
    static let tags = ["title": "Sine Song", "artist": "The Oscillators", "album": "Test Tones", "date": "2024"]

    /// Pulls the whole stream, returning its chunks.
    static func chunks(of transcoder: AudioTranscoder) throws -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        while let chunk = try transcoder.nextChunk() { chunks.append(chunk) }
        return chunks
    }

    /// Streams `input` at `kbps` into `output` and returns ffprobe's view of it.
    static func streamed(_ input: URL, kbps: Int, to output: URL) throws -> Probe {
        let transcoder = try AudioTranscoder(input: input, kbps: kbps)
        let bytes = try chunks(of: transcoder).flatMap { $0 }
        try Data(bytes).write(to: output)
        return try MediaTools.probe(output)
    }

    @Test("Every input format becomes CBR MP3 at 64, 128 and 192 kbit/s, as long as the input, with its tags",
          arguments: ["ogg", "flac", "wav", "mp3", "m4a", "opus"])
    func formats(_ format: String) throws {
        let directory = try TemporaryDirectory(prefix: "mhz-transcoder")
        let input = directory.path("in.\(format)")
        try MediaTools.tone(at: input, seconds: 3, rate: format == "opus" ? 48000 : 44100, tags: Self.tags)
        let inputDuration = try MediaTools.probe(input).duration
        for kbps in [64, 128, 192] {
            let probe = try Self.streamed(input, kbps: kbps, to: directory.path("out-\(kbps).mp3"))
            #expect(probe.streams.count == 1)
            let stream = try #require(probe.streams.first)
            #expect(stream.codec_name == "mp3")
            #expect(stream.bit_rate == "\(kbps * 1000)")
            #expect(stream.sample_rate == (format == "opus" ? "48000" : "44100"))
            #expect(stream.channels == 2)
            #expect(abs(probe.duration - inputDuration) < 0.1, "\(probe.duration) s for \(inputDuration) s")
            #expect(probe.format.tags == Self.tags)
        }
        #expect(try directory.contents() == ["in.\(format)", "out-128.mp3", "out-192.mp3", "out-64.mp3"])
    }

    @Test("The stream comes in chunks while the input is read: 6 s at 64 kbit/s give 12 chunks, the first one the ID3 tag and a few frames")
    func streamsInChunks() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-transcoder")
        let input = directory.path("in.ogg")
        try MediaTools.tone(at: input, seconds: 6, tags: Self.tags)
        let chunks = try Self.chunks(of: AudioTranscoder(input: input, kbps: 64))
        let total = chunks.reduce(0) { $0 + $1.count }
        // 6 s at 8000 bytes a second, and a tag: 12 chunks of 4096 bytes or more, the last one shorter.
        #expect(chunks.count == total / AudioTranscoder.defaultChunkSize + 1)
        #expect(chunks.count >= 10)
        #expect(chunks.dropLast().allSatisfy { $0.count >= AudioTranscoder.defaultChunkSize })
        // The first chunk is a small part of the stream: it ends with the Vorbis packet (at
        // most 2048 samples, under 2 MP3 frames of 208 or 209 bytes at 64 kbit/s, LAME
        // emitting at most one more) that took it past the chunk size.
        let first = try #require(chunks.first)
        #expect(first.count < AudioTranscoder.defaultChunkSize + 3 * 209)
        #expect(Array(first.prefix(3)) == Array("ID3".utf8))
    }

    @Test("A bigger chunk size gives fewer, bigger chunks of the same bytes")
    func chunkSize() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-transcoder")
        let input = directory.path("in.flac")
        try MediaTools.tone(at: input, seconds: 2)
        let small = try Self.chunks(of: AudioTranscoder(input: input, kbps: 128, chunkSize: 1000))
        let large = try Self.chunks(of: AudioTranscoder(input: input, kbps: 128, chunkSize: 100_000))
        #expect(large.count == 1)
        // 2 s at 16000 bytes a second: a chunk is returned after the FLAC packet (4096
        // samples, 3 or 4 MP3 frames of 417 or 418 bytes) that took it past 1000 bytes.
        #expect(small.count >= 10)
        #expect(small.dropLast().allSatisfy { $0.count >= 1000 && $0.count < 1000 + 5 * 418 })
        #expect(small.flatMap { $0 } == large.flatMap { $0 })
    }

    @Test("Mono stays mono; 5.1 is mixed down to stereo")
    func channels() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-transcoder")
        let mono = directory.path("mono.wav")
        let surround = directory.path("surround.flac")
        try MediaTools.tone(at: mono, seconds: 1, channels: 1)
        try MediaTools.tone(at: surround, seconds: 1, channels: 6)
        #expect(try Self.streamed(mono, kbps: 64, to: directory.path("mono.mp3")).streams.first?.channels == 1)
        #expect(try Self.streamed(surround, kbps: 128, to: directory.path("surround.mp3")).streams.first?.channels == 2)
    }

    @Test("A 22.05 kHz input keeps its rate where the bit rate exists at that rate (64 kbit/s), else becomes 44.1 kHz (192 kbit/s)")
    func sampleRates() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-transcoder")
        let input = directory.path("low.wav")
        try MediaTools.tone(at: input, seconds: 2, rate: 22050)
        let low = try #require(try Self.streamed(input, kbps: 64, to: directory.path("64.mp3")).streams.first)
        #expect(low.sample_rate == "22050")
        #expect(low.bit_rate == "64000")
        let high = try #require(try Self.streamed(input, kbps: 192, to: directory.path("192.mp3")).streams.first)
        #expect(high.sample_rate == "44100")
        #expect(high.bit_rate == "192000")
        let other = directory.path("48k.flac")
        try MediaTools.tone(at: other, seconds: 1, rate: 48000)
        #expect(try Self.streamed(other, kbps: 128, to: directory.path("48k.mp3")).streams.first?.sample_rate == "48000")
    }

    @Test("transcode(input:to:kbps:) writes the whole file under its name and nothing else")
    func wholeFile() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-transcoder")
        let input = directory.path("in.ogg")
        try MediaTools.tone(at: input, seconds: 2, tags: Self.tags)
        let output = directory.path("out.mp3")
        try AudioTranscoder.transcode(input: input, to: output, kbps: 128)
        #expect(try directory.contents() == ["in.ogg", "out.mp3"])
        let probe = try MediaTools.probe(output)
        #expect(probe.streams.first?.bit_rate == "128000")
        #expect(probe.format.tags == Self.tags)
        let streamed = try Self.chunks(of: AudioTranscoder(input: input, kbps: 128)).flatMap { $0 }
        #expect(try Data(contentsOf: output) == Data(streamed))
    }

    @Test("A transcoder dropped after two chunks closes its input")
    func abandoned() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-transcoder")
        let input = directory.path("in.ogg")
        try MediaTools.tone(at: input, seconds: 6)
        for _ in 0..<20 {
            var transcoder: AudioTranscoder? = try AudioTranscoder(input: input, kbps: 192)
            #expect(try transcoder?.nextChunk()?.isEmpty == false)
            #expect(try transcoder?.nextChunk()?.isEmpty == false)
            #expect(try Self.openDescriptors(of: input) == 1)
            transcoder = nil
            #expect(try Self.openDescriptors(of: input) == 0)
        }
        // The input is still readable from start to end afterwards.
        #expect(try Self.chunks(of: AudioTranscoder(input: input, kbps: 192)).count > 10)
    }

    /// How many of this process's file descriptors are open on `file` (/proc/self/fd).
    static func openDescriptors(of file: URL) throws -> Int {
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        return descriptors.filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == file.path
        }.count
    }
}
