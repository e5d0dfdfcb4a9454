import CFFmpeg
import Foundation

/// libavformat's muxer for the periods a join writes after the bytes it keeps: the first
/// period's container (MPEG-TS, ADTS or MP3) with one audio stream, writing straight to a
/// file descriptor through a write-only `AVIOContext`, in the PIDs and program of the
/// first period and with MPEG-TS continuity counters that go on from the kept bytes.
///
/// Timestamps are written as given (`mpegts_copyts`): the joiner makes them continue the
/// kept bytes'.
final class PeriodMuxer {
    private static let ioBufferSize: Int32 = 64 * 1024

    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var io: UnsafeMutablePointer<AVIOContext>?
    private let sink: FileSink
    private var stream: UnsafeMutablePointer<AVStream>?

    /// The muxer for what a demuxer named `demuxer` read, or nil when that container cannot
    /// be continued by appending.
    static func muxerName(forDemuxer demuxer: String) -> String? {
        switch demuxer {
        case "mpegts": "mpegts"
        case "aac": "adts"
        case "mp3": "mp3"
        default: nil
        }
    }

    /// Sets up the muxer `name` for one stream whose parameters `describe` fills in, writing
    /// to `descriptor` after what `continuity` saw, and writes its header. `pid` and
    /// `program` place the stream as the first period had it (MPEG-TS only).
    init(name: String, descriptor: Int32, pid: Int32?, program: (number: Int32, pmtPID: Int32)?,
         continuity: TSContinuity?,
         describe: (UnsafeMutablePointer<AVCodecParameters>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        sink = FileSink(descriptor: descriptor, continuity: continuity)
        var context: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegStatus.check(mhz_avformat_alloc_output_context2(&context, nil, name, nil), .mux)
        guard let context else { throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM))) }
        format = context
        guard let buffer = mhz_av_malloc(Int(Self.ioBufferSize))?.assumingMemoryBound(to: UInt8.self) else {
            throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
        }
        io = mhz_avio_alloc_context(buffer, Self.ioBufferSize, 1, Unmanaged.passUnretained(sink).toOpaque(), nil,
                                    { opaque, bytes, size in
                                        guard let opaque, let bytes, size > 0 else { return size }
                                        return Unmanaged<FileSink>.fromOpaque(opaque).takeUnretainedValue()
                                            .write(UnsafeRawBufferPointer(start: bytes, count: Int(size)))
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
        try describe(stream.pointee.codecpar)
        // The input's tag means nothing to this muxer: it picks its own.
        stream.pointee.codecpar.pointee.codec_tag = 0
        // mpegtsenc: a stream id of 16 or more is its PID.
        if let pid, (0x10..<0x1FFF).contains(pid) { stream.pointee.id = pid }
        var options: OpaquePointer?
        switch name {
        case "mpegts":
            mhz_av_dict_set(&options, "mpegts_copyts", "1", 0)
            if let program {
                mhz_av_dict_set(&options, "mpegts_service_id", "\(program.number)", 0)
                if (0x20..<0x1FFF).contains(program.pmtPID) {
                    mhz_av_dict_set(&options, "mpegts_pmt_start_pid", "\(program.pmtPID)", 0)
                }
            }
        case "mp3":
            // No tags, no Xing frame: nothing but audio frames after the kept bytes.
            mhz_av_dict_set(&options, "id3v2_version", "0", 0)
            mhz_av_dict_set(&options, "write_id3v1", "0", 0)
            mhz_av_dict_set(&options, "write_xing", "0", 0)
        default: break
        }
        let written = mhz_avformat_write_header(context, &options)
        mhz_av_dict_free(&options)
        try FFmpegStatus.check(written, .mux)
        try checkIO()
    }

    deinit {
        mhz_avformat_free_context(format)
        if let io { mhz_av_freep(&io.pointee.buffer) }
        mhz_avio_context_free(&io)
    }

    /// The time base the muxer keeps the stream's timestamps in (set by the header:
    /// 1/90000 for MPEG-TS).
    var timeBase: AVRational { stream?.pointee.time_base ?? AVRational(num: 1, den: 90000) }

    /// Writes one packet, its timestamps already in ``timeBase``. av_write_frame "does not
    /// take ownership of the packet".
    func write(_ packet: UnsafeMutablePointer<AVPacket>) throws(TranscodeError) {
        guard let format, let stream else { return }
        packet.pointee.stream_index = stream.pointee.index
        packet.pointee.pos = -1
        try FFmpegStatus.check(mhz_av_write_frame(format, packet), .mux)
        try checkIO()
    }

    /// Writes the trailer and flushes everything to the descriptor.
    func finish() throws(TranscodeError) {
        guard let format else { return }
        try FFmpegStatus.check(mhz_av_write_trailer(format), .mux)
        mhz_avio_flush(format.pointee.pb)
        try checkIO()
        if !sink.leftover.isEmpty { throw .failed(stage: .mux, reason: "\(sink.leftover.count) bytes that are no whole MPEG-TS packet") }
    }

    /// A write error of the AVIOContext sticks in its `error` field.
    private func checkIO() throws(TranscodeError) {
        if let io, io.pointee.error < 0 { throw .failed(stage: .mux, reason: FFmpegStatus.describe(io.pointee.error)) }
    }
}

/// Where the AVIOContext's write callback puts the bytes: the output file, through the
/// continuity counters' rewrite for MPEG-TS.
private final class FileSink {
    let descriptor: Int32
    var continuity: TSContinuity?

    init(descriptor: Int32, continuity: TSContinuity?) {
        self.descriptor = descriptor
        self.continuity = continuity
    }

    /// Bytes the rewrite holds that make no whole packet.
    var leftover: [UInt8] { continuity?.remainder ?? [] }

    /// write_packet: the bytes written, or a negative AVERROR.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        let status: Int32
        if continuity != nil {
            let packets = continuity!.patch(bytes)
            status = packets.withUnsafeBytes { Self.writeAll($0, to: descriptor) }
        } else {
            status = Self.writeAll(bytes, to: descriptor)
        }
        return status == 0 ? Int32(bytes.count) : cffmpeg_error_from_errno(status)
    }

    /// Writes all of `bytes`, past short writes and signals; 0 or the `errno`.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }
}
