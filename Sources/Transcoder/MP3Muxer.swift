import CFFmpeg

/// libavformat's `mp3` muxer writing into memory: a custom write-only `AVIOContext` whose
/// callback appends to a byte buffer the transcoder hands out in chunks. Nothing is ever
/// written twice: the AVIOContext has no seek callback, and the Xing/LAME header, which
/// the muxer would go back to fill in at the trailer, is off (`write_xing` 0). Each byte
/// handed out is final.
final class MP3Muxer {
    /// The tags copied from the input: the ones a player shows, and the genre and track
    /// number a library sorts by. The muxer's ID3v2.4 writer maps them to TIT2, TPE1, TALB,
    /// TDRC, TCON and TRCK.
    static let copiedTags = ["title", "artist", "album", "date", "genre", "track"]
    /// The AVIOContext's buffer; each packet is flushed out of it at once anyway.
    private static let ioBufferSize: Int32 = 32 * 1024

    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var io: UnsafeMutablePointer<AVIOContext>?
    private let sink = ByteSink()
    private var stream: UnsafeMutablePointer<AVStream>?
    private let encoderTimeBase: AVRational

    /// Sets up the muxer for `encoder`'s stream with `tags`, and writes the header (the
    /// ID3v2 tag), so the first chunk carries the tags.
    init(encoder: UnsafePointer<AVCodecContext>, tags: [(key: String, value: String)]) throws(TranscodeError) {
        encoderTimeBase = encoder.pointee.time_base
        var context: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegStatus.check(mhz_avformat_alloc_output_context2(&context, nil, "mp3", nil), .mux)
        guard let context else {
            throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
        }
        format = context
        guard let buffer = mhz_av_malloc(Int(Self.ioBufferSize))?.assumingMemoryBound(to: UInt8.self) else {
            throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
        }
        // write_packet "may not change the input buffers content" (avio_alloc_context).
        io = mhz_avio_alloc_context(buffer, Self.ioBufferSize, 1, Unmanaged.passUnretained(sink).toOpaque(), nil,
                                { opaque, bytes, size in
                                    guard let opaque, let bytes, size > 0 else { return size }
                                    Unmanaged<ByteSink>.fromOpaque(opaque).takeUnretainedValue()
                                        .bytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(size)))
                                    return size
                                }, nil)
        guard let io else {
            mhz_av_free(buffer)
            throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
        }
        context.pointee.pb = io
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        for (key, value) in tags { mhz_av_dict_set(&context.pointee.metadata, key, value, 0) }

        guard let stream = mhz_avformat_new_stream(context, nil) else {
            throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
        }
        self.stream = stream
        try FFmpegStatus.check(mhz_avcodec_parameters_from_context(stream.pointee.codecpar, encoder), .mux)
        stream.pointee.time_base = encoderTimeBase

        var options: OpaquePointer?
        mhz_av_dict_set(&options, "write_xing", "0", 0)
        let written = mhz_avformat_write_header(context, &options)
        mhz_av_dict_free(&options)
        try FFmpegStatus.check(written, .mux)
        mhz_avio_flush(io)
        try checkIO()
    }

    deinit {
        // The muxer does not own a custom AVIOContext (AVFMT_FLAG_CUSTOM_IO), and the
        // buffer it uses may not be the one given: "It may be freed and replaced with a new
        // buffer by libavformat. AVIOContext.buffer holds the buffer currently in use, which
        // must be later freed with av_free()" (avio_alloc_context).
        mhz_avformat_free_context(format)
        if let io { mhz_av_freep(&io.pointee.buffer) }
        mhz_avio_context_free(&io)
    }

    /// Bytes written and not yet taken.
    var pending: Int { sink.bytes.count }

    /// Bytes written since the start, the ID3v2 tag included.
    var written: Int { sink.taken + sink.bytes.count }

    /// Hands out everything written so far.
    func take() -> [UInt8] {
        defer {
            sink.taken += sink.bytes.count
            sink.bytes.removeAll(keepingCapacity: true)
        }
        return sink.bytes
    }

    /// Writes one encoded packet and pushes it through the AVIOContext at once.
    /// av_write_frame "passes the packet directly to the muxer, without any buffering or
    /// reordering" and "does not take ownership of the packet" (the encoder unrefs it).
    func write(_ packet: UnsafeMutablePointer<AVPacket>) throws(TranscodeError) {
        guard let format, let stream else { return }
        packet.pointee.stream_index = stream.pointee.index
        mhz_av_packet_rescale_ts(packet, encoderTimeBase, stream.pointee.time_base)
        try FFmpegStatus.check(mhz_av_write_frame(format, packet), .mux)
        mhz_avio_flush(format.pointee.pb)
        try checkIO()
    }

    /// Writes the trailer (no ID3v1, no Xing header: nothing goes back) and flushes.
    func finish() throws(TranscodeError) {
        guard let format else { return }
        try FFmpegStatus.check(mhz_av_write_trailer(format), .mux)
        mhz_avio_flush(format.pointee.pb)
        try checkIO()
    }

    /// A write error of the AVIOContext sticks in its `error` field.
    private func checkIO() throws(TranscodeError) {
        if let io, io.pointee.error < 0 { throw .failed(stage: .mux, reason: FFmpegStatus.describe(io.pointee.error)) }
    }
}

/// Where the AVIOContext's write callback puts the bytes: a class, so the callback reaches
/// it through the opaque pointer (unretained: the muxer that owns both outlives the
/// AVIOContext).
private final class ByteSink {
    var bytes: [UInt8] = []
    /// Bytes handed out before those in `bytes`.
    var taken = 0
}
