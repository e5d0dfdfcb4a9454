import CFFmpeg

/// One libavformat muxer of one stream, owned whole: the output context, the write-only
/// `AVIOContext` it writes through and that context's buffer are made here and freed here,
/// once, whatever point a caller stops at (a failed setup, an abandoned stream, a finished
/// one). Every muxer of this layer is one of these: the MP3 stream (``MP3Muxer``), a live
/// segment (``TSSegmentMuxer``) and a join's appended periods (``PeriodMuxer``).
///
/// The bytes go to a ``Sink``, a Swift closure the AVIOContext's write callback calls;
/// there is no seek callback, so a muxer never goes back over what it wrote. A sink that
/// refuses bytes sets the AVIOContext's sticky `error` (and the AVIOContext writes nothing
/// more), which is checked after the header, every packet and the trailer, each time after
/// the flush that may have met it, so a refused write is a `.failed(.mux, …)` from the
/// call that met it: avformat_write_header flushes after its own check of that error.
final class MuxerContext {
    /// Where the written bytes go: returns 0, or the `errno` that kept them from going.
    typealias Sink = (UnsafeRawBufferPointer) -> Int32

    /// The output context; its stream is ``stream``.
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var io: UnsafeMutablePointer<AVIOContext>?
    /// The sink, reached from the write callback through the opaque pointer.
    private let box: SinkBox
    /// Each packet is pushed through to the sink as soon as it is written (a stream handed
    /// out as it is made). libavformat does so itself by default (`flush_packets` -1 marks
    /// a flush point after every packet, and a custom AVIOContext's minimum packet size is
    /// 0); a streamed output flushes again so that it does not depend on that default.
    private let flushesEachPacket: Bool
    /// The trailer is written: nothing more goes out (av_write_trailer "may only be called
    /// after a successful call to avformat_write_header", once).
    private var ended = false
    /// The one stream.
    private var stream: UnsafeMutablePointer<AVStream>?

    /// Makes the muxer `name` (libavformat's short name: `mp3`, `mpegts`, `adts`) writing to
    /// `sink` through a buffer of `bufferSize` bytes, with one stream, which `describe` fills
    /// in (its codec parameters, its time base; the context's tags and delays), and writes
    /// the header with the muxer's private `options`.
    init(muxer name: String, bufferSize: Int32, flushesEachPacket: Bool = false,
         options: [(key: String, value: String)] = [], sink: @escaping Sink,
         describe: (UnsafeMutablePointer<AVFormatContext>, UnsafeMutablePointer<AVStream>) throws(TranscodeError) -> Void)
        throws(TranscodeError) {
        box = SinkBox(sink)
        self.flushesEachPacket = flushesEachPacket
        var context: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegStatus.check(mhz_avformat_alloc_output_context2(&context, nil, name, nil), .mux)
        guard let context else { throw Self.outOfMemory }
        format = context
        guard let buffer = mhz_av_malloc(Int(bufferSize))?.assumingMemoryBound(to: UInt8.self) else { throw Self.outOfMemory }
        // write_packet "may not change the input buffers content" (avio_alloc_context).
        io = mhz_avio_alloc_context(buffer, bufferSize, 1, Unmanaged.passUnretained(box).toOpaque(), nil,
                                    { opaque, bytes, size in
                                        guard let opaque, let bytes, size > 0 else { return size }
                                        return Unmanaged<SinkBox>.fromOpaque(opaque).takeUnretainedValue()
                                            .write(UnsafeRawBufferPointer(start: bytes, count: Int(size)))
                                    }, nil)
        guard let io else {
            // Not yet the AVIOContext's: the caller's to free.
            mhz_av_free(buffer)
            throw Self.outOfMemory
        }
        // AVFormatContext.pb, muxing: "set by the user before avformat_write_header(). The
        // caller must take care of closing / freeing the IO context." AVFMT_FLAG_CUSTOM_IO:
        // "The caller has supplied a custom AVIOContext, don't avio_close() it."
        context.pointee.pb = io
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        guard let stream = mhz_avformat_new_stream(context, nil) else { throw Self.outOfMemory }
        self.stream = stream
        try describe(context, stream)
        var dictionary: OpaquePointer?
        for (key, value) in options { mhz_av_dict_set(&dictionary, key, value, 0) }
        let written = mhz_avformat_write_header(context, &dictionary)
        mhz_av_dict_free(&dictionary)
        try FFmpegStatus.check(written, .mux)
        if flushesEachPacket { mhz_avio_flush(io) }
        try checkIO()
    }

    deinit {
        // avformat_free_context frees the context "and all its streams" (a muxer whose header
        // was written is deinitialized by it too) but not the custom AVIOContext, whose
        // buffer may not be the one given: "It may be freed and replaced with a new buffer by
        // libavformat. AVIOContext.buffer holds the buffer currently in use, which must be
        // later freed with av_free()" (avio_alloc_context); avio_context_free frees the
        // context itself, not that buffer.
        mhz_avformat_free_context(format)
        if let io { mhz_av_freep(&io.pointee.buffer) }
        mhz_avio_context_free(&io)
    }

    /// The stream's time base, as the header set it (1/90000 for MPEG-TS).
    var timeBase: AVRational { stream?.pointee.time_base ?? AVRational(num: 1, den: 90000) }

    /// Writes one packet of the stream, its timestamps moved in place from `timeBase` to
    /// the stream's (nil: they are in the stream's already); where it was read from, if it
    /// was, means nothing to this output. av_write_frame "passes the packet directly to
    /// the muxer, without any buffering or reordering" and "does not take ownership of the
    /// packet".
    func write(_ packet: UnsafeMutablePointer<AVPacket>, from timeBase: AVRational? = nil) throws(TranscodeError) {
        guard let format, let stream, !ended else { return }
        if let timeBase { mhz_av_packet_rescale_ts(packet, timeBase, stream.pointee.time_base) }
        packet.pointee.stream_index = stream.pointee.index
        packet.pointee.pos = -1
        try FFmpegStatus.check(mhz_av_write_frame(format, packet), .mux)
        if flushesEachPacket { mhz_avio_flush(format.pointee.pb) }
        try checkIO()
    }

    /// Writes the trailer (once, after the header) and flushes everything to the sink.
    func writeTrailer() throws(TranscodeError) {
        guard let format, !ended else { return }
        ended = true
        try FFmpegStatus.check(mhz_av_write_trailer(format), .mux)
        mhz_avio_flush(format.pointee.pb)
        try checkIO()
    }

    /// A write error of the AVIOContext sticks in its `error` field.
    private func checkIO() throws(TranscodeError) {
        if let io, io.pointee.error < 0 { throw .failed(stage: .mux, reason: FFmpegStatus.describe(io.pointee.error)) }
    }

    private static var outOfMemory: TranscodeError {
        .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
    }
}

/// The sink behind the AVIOContext's opaque pointer (unretained: the ``MuxerContext`` that
/// owns both outlives the AVIOContext).
private final class SinkBox {
    let sink: MuxerContext.Sink

    init(_ sink: @escaping MuxerContext.Sink) {
        self.sink = sink
    }

    /// write_packet: the bytes written, or a negative AVERROR.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        let status = sink(bytes)
        return status == 0 ? Int32(bytes.count) : cffmpeg_error_from_errno(status)
    }
}
