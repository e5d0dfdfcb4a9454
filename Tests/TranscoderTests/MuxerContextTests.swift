import Foundation
import Testing
@testable import Transcoder

/// ``MuxerContext``, the one owner of every muxer's output: a write its sink refuses fails
/// the very call whose bytes were refused (the header included, which libavformat flushes
/// after its own check), in each container this layer writes, and no byte reaches the sink
/// after it.
@Suite struct MuxerContextTests {
    /// A sink that takes the bytes of its first `accepted` calls and refuses every later
    /// one with `ENOSPC`, counting the calls.
    final class RefusingSink {
        let accepted: Int
        private(set) var calls = 0
        private(set) var refusedCalls = 0

        init(accepting accepted: Int) {
            self.accepted = accepted
        }

        func write(_ bytes: UnsafeRawBufferPointer) -> Int32 {
            calls += 1
            guard calls > accepted else { return 0 }
            refusedCalls += 1
            return ENOSPC
        }
    }

    /// What a refused write is thrown as: FFmpeg's words for `AVERROR(ENOSPC)`.
    static let refused = TranscodeError.failed(stage: .mux, reason: "No space left on device")

    /// Writes the packets of `frames` frames of silence from `encoder` into `output`,
    /// stopping at the first write that throws: the packets written (that one included),
    /// what it threw, and whether the sink's refusal came during that very write.
    static func writePackets(of encoder: EncoderContext, frames: Int, into output: MuxerContext,
                             sink: RefusingSink) throws -> (packets: Int, error: TranscodeError?, refusedThere: Bool) {
        let converter = try SampleConverter(output: encoder.format)
        var packets = 0
        var refusedBefore = 0
        do throws(TranscodeError) {
            for _ in 0..<frames {
                try converter.appendSilence(encoder.frameSize)
                try encoder.encode(from: converter, count: encoder.frameSize) { (packet) throws(TranscodeError) in
                    packets += 1
                    refusedBefore = sink.refusedCalls
                    try output.write(packet)
                }
            }
        } catch {
            return (packets, error, refusedBefore == 0 && sink.refusedCalls == 1)
        }
        return (packets, nil, false)
    }

    /// A muxer `name` fed by `encoder` writing to `sink`, flushing each packet if told.
    static func output(_ name: String, encoder: EncoderContext, flushes: Bool,
                       sink: RefusingSink) throws(TranscodeError) -> MuxerContext {
        // A PCR period said outright, as the live segments say it: left to choose, the
        // MPEG-TS muxer asks AAC for a frame size it cannot give, and warns.
        let options = name == "mpegts" ? [(key: "pcr_period", value: "100")] : []
        return try MuxerContext(muxer: name, bufferSize: 4096, flushesEachPacket: flushes, options: options,
                                sink: sink.write) {
            (_, stream) throws(TranscodeError) in
            try encoder.copyParameters(to: stream.pointee.codecpar)
            stream.pointee.time_base = encoder.timeBase
        }
    }

    /// The encoder of a muxer's stream: MP3 for `mp3`, AAC for the others.
    static func encoder(for name: String) throws(TranscodeError) -> EncoderContext {
        name == "mp3" ? try MP3Encoder(inputRate: 44100, inputChannels: 2, kbps: 128).codec : try AACEncoder.open(kbps: 64)
    }

    @Test("An MP3 stream whose tag is refused fails to open (avformat_write_header flushes after its own check)")
    func refusedHeader() throws {
        for flushes in [true, false] {
            let encoder = try Self.encoder(for: "mp3")
            let sink = RefusingSink(accepting: 0)
            #expect(throws: Self.refused) { try Self.output("mp3", encoder: encoder, flushes: flushes, sink: sink) }
            #expect(sink.calls == 1)
        }
    }

    @Test("In every container, a write the sink refuses fails the packet whose bytes it was and the trailer; nothing is written after")
    func refusedPacket() throws {
        for (name, flushes) in [("mp3", true), ("mpegts", false), ("adts", false)] {
            for accepted in [1, 3, 7] {
                let encoder = try Self.encoder(for: name)
                let sink = RefusingSink(accepting: accepted)
                let output = try Self.output(name, encoder: encoder, flushes: flushes, sink: sink)
                let result = try Self.writePackets(of: encoder, frames: 40, into: output, sink: sink)
                #expect(result.error == Self.refused && result.refusedThere, "\(name), accepting \(accepted)")
                #expect(throws: Self.refused) { try output.writeTrailer() }
                #expect(sink.calls == accepted + 1, "\(name): the AVIOContext writes nothing after its error")
            }
        }
    }
}
