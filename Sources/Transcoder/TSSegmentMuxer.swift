import CFFmpeg

/// One HLS segment of one variant: libavformat's `mpegts` muxer, made anew for each
/// segment so that each starts with its PAT and PMT (a client may join at any segment),
/// writing into memory (a ``MuxerContext`` whose sink keeps the bytes). Timestamps are
/// written as given (`mpegts_copyts`): they come from the broadcast's one sample clock, so
/// they go on from segment to segment and variants carry the same ones.
///
/// A new muxer counts MPEG-TS continuity counters from 0; a demuxer reading segment after
/// segment would see them jump and mark the audio under way corrupt, so each segment's
/// counters continue the previous segment's (``TSContinuity``).
final class TSSegmentMuxer {
    private static let ioBufferSize: Int32 = 32 * 1024
    /// `AVFormatContext.max_delay` in microseconds: how long audio may wait in the muxer
    /// for its PES (half of it).
    static let maximumDelay: Int32 = 700_000
    /// Seconds between repeats of the PAT, PMT and SDT: longer than any segment, so each
    /// segment has them once, at its start.
    static let tablePeriod = 3600

    private let output: MuxerContext
    private let sink: MemorySink
    /// The time base of the packets handed to ``write(_:)``.
    private let sourceTimeBase: AVRational

    /// Opens the muxer for the stream `encoder` makes and writes its header; the counters
    /// continue those of `previous` (the last segment's bytes; empty for the first).
    init(encoder: EncoderContext, previous: [UInt8]) throws(TranscodeError) {
        var continuity = TSContinuity()
        previous.withUnsafeBytes { continuity.observe($0) }
        let sink = MemorySink(continuity: continuity)
        self.sink = sink
        sourceTimeBase = encoder.timeBase
        let options = [
            ("mpegts_copyts", "1"),
            // A PCR every 100 ms, said outright: left to choose, the muxer asks the stream
            // for its frame size with `av_get_audio_frame_duration2(par, 0)`, which AAC
            // cannot answer without a packet's size, and warns.
            ("pcr_period", "100"),
            // The PAT, PMT and SDT once, at the start: a segment is where a client joins, and
            // the default periods (0.1 s, 0.5 s) put 18 PAT and PMT pairs in a 2 s segment.
            ("pat_period", "\(Self.tablePeriod)"), ("sdt_period", "\(Self.tablePeriod)"),
        ]
        output = try MuxerContext(muxer: "mpegts", bufferSize: Self.ioBufferSize, options: options) { bytes in
            sink.append(bytes)
            return 0
        } describe: { (context, stream) throws(TranscodeError) in
            try encoder.copyParameters(to: stream.pointee.codecpar)
            stream.pointee.time_base = encoder.timeBase
            // The muxer gathers audio frames into one PES until it holds `pes_payload_size`
            // (2930) bytes or half of `max_delay`; the library's `max_delay` (-1) makes that
            // half 0 and every frame its own PES, whose header and stuffing all but double a
            // 64 kbit/s stream. 0.7 s is the ffmpeg command line's own (`-muxdelay`): some
            // 15 frames at 64 kbit/s, 5 at 192 a PES. The PCR then runs 0.7 s behind the
            // timestamps (a decoder's buffer time); they start 2 s in, so it is never negative.
            context.pointee.max_delay = Self.maximumDelay
        }
    }

    /// Writes one packet of the encoder's (its timestamps in samples); the packet is
    /// rescaled in place.
    func write(_ packet: UnsafeMutablePointer<AVPacket>) throws(TranscodeError) {
        try output.write(packet, from: sourceTimeBase)
    }

    /// Writes the trailer (which flushes the audio PES still buffered) and returns the
    /// segment's bytes, whole MPEG-TS packets.
    func finish() throws(TranscodeError) -> [UInt8] {
        try output.writeTrailer()
        if !sink.continuity.remainder.isEmpty {
            throw .failed(stage: .mux, reason: "\(sink.continuity.remainder.count) bytes that are no whole MPEG-TS packet")
        }
        return sink.bytes
    }
}

/// Where the output's sink puts a segment's bytes, their continuity counters rewritten on
/// the way.
private final class MemorySink {
    var continuity: TSContinuity
    private(set) var bytes: [UInt8] = []

    init(continuity: TSContinuity) {
        self.continuity = continuity
    }

    func append(_ written: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: continuity.patch(written))
    }
}
