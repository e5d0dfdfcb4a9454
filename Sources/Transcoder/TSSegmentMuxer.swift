import CFFmpeg
import Foundation

/// One HLS segment of one variant: libavformat's `mpegts` muxer, made anew for each
/// segment so that each starts with its PAT and PMT (a client may join at any segment),
/// writing into memory. Timestamps are written as given (`mpegts_copyts`): they come from
/// the broadcast's one sample clock, so they go on from segment to segment and variants
/// carry the same ones.
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

    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var io: UnsafeMutablePointer<AVIOContext>?
    private var stream: UnsafeMutablePointer<AVStream>?
    private let sink: MemorySink
    /// The time base of the packets handed to ``write(_:from:)``.
    private let sourceTimeBase: AVRational

    /// Opens the muxer for the stream `encoder` makes and writes its header; the counters
    /// continue those of `previous` (the last segment's bytes; empty for the first).
    init(encoder: AACEncoder, previous: [UInt8]) throws(TranscodeError) {
        var continuity = TSContinuity()
        previous.withUnsafeBytes { continuity.observe($0) }
        sink = MemorySink(continuity: continuity)
        sourceTimeBase = encoder.timeBase
        var context: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegStatus.check(mhz_avformat_alloc_output_context2(&context, nil, "mpegts", nil), .mux)
        guard let context else { throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM))) }
        format = context
        guard let buffer = mhz_av_malloc(Int(Self.ioBufferSize))?.assumingMemoryBound(to: UInt8.self) else {
            throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
        }
        io = mhz_avio_alloc_context(buffer, Self.ioBufferSize, 1, Unmanaged.passUnretained(sink).toOpaque(), nil,
                                    { opaque, bytes, size in
                                        guard let opaque, let bytes, size > 0 else { return size }
                                        Unmanaged<MemorySink>.fromOpaque(opaque).takeUnretainedValue()
                                            .append(UnsafeRawBufferPointer(start: bytes, count: Int(size)))
                                        return size
                                    }, nil)
        guard let io else {
            mhz_av_free(buffer)
            throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
        }
        context.pointee.pb = io
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        guard let stream = mhz_avformat_new_stream(context, nil) else {
            throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
        }
        self.stream = stream
        try encoder.copyParameters(to: stream.pointee.codecpar)
        stream.pointee.time_base = encoder.timeBase
        // The muxer gathers audio frames into one PES until it holds `pes_payload_size`
        // (2930) bytes or half of `max_delay`; the library's `max_delay` (-1) makes that
        // half 0 and every frame its own PES, whose header and stuffing all but double a
        // 64 kbit/s stream. 0.7 s is the ffmpeg command line's own (`-muxdelay`): some
        // 15 frames at 64 kbit/s, 5 at 192 a PES. The PCR then runs 0.7 s behind the
        // timestamps (a decoder's buffer time); they start 2 s in, so it is never negative.
        context.pointee.max_delay = Self.maximumDelay
        var options: OpaquePointer?
        mhz_av_dict_set(&options, "mpegts_copyts", "1", 0)
        // A PCR every 100 ms, said outright: left to choose, the muxer asks the stream for
        // its frame size with `av_get_audio_frame_duration2(par, 0)`, which AAC cannot
        // answer without a packet's size, and warns.
        mhz_av_dict_set(&options, "pcr_period", "100", 0)
        // The PAT, PMT and SDT once, at the start: a segment is where a client joins, and
        // the default periods (0.1 s, 0.5 s) put 18 PAT and PMT pairs in a 2 s segment.
        mhz_av_dict_set(&options, "pat_period", "\(Self.tablePeriod)", 0)
        mhz_av_dict_set(&options, "sdt_period", "\(Self.tablePeriod)", 0)
        let written = mhz_avformat_write_header(context, &options)
        mhz_av_dict_free(&options)
        try FFmpegStatus.check(written, .mux)
    }

    deinit {
        mhz_avformat_free_context(format)
        if let io { mhz_av_freep(&io.pointee.buffer) }
        mhz_avio_context_free(&io)
    }

    /// Writes one packet of the encoder's (its timestamps in samples); the packet is
    /// rescaled in place. av_write_frame "does not take ownership of the packet".
    func write(_ packet: UnsafeMutablePointer<AVPacket>) throws(TranscodeError) {
        guard let format, let stream else { return }
        mhz_av_packet_rescale_ts(packet, sourceTimeBase, stream.pointee.time_base)
        packet.pointee.stream_index = stream.pointee.index
        packet.pointee.pos = -1
        try FFmpegStatus.check(mhz_av_write_frame(format, packet), .mux)
    }

    /// Writes the trailer (which flushes the audio PES still buffered) and returns the
    /// segment's bytes, whole MPEG-TS packets.
    func finish() throws(TranscodeError) -> [UInt8] {
        guard let format else { return [] }
        try FFmpegStatus.check(mhz_av_write_trailer(format), .mux)
        mhz_avio_flush(format.pointee.pb)
        if let io, io.pointee.error < 0 { throw .failed(stage: .mux, reason: FFmpegStatus.describe(io.pointee.error)) }
        if !sink.continuity.remainder.isEmpty {
            throw .failed(stage: .mux, reason: "\(sink.continuity.remainder.count) bytes that are no whole MPEG-TS packet")
        }
        return sink.bytes
    }
}

/// Where the AVIOContext's write callback puts a segment's bytes, their continuity
/// counters rewritten on the way.
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
