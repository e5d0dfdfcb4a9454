import CFFmpeg

/// One libavcodec audio encoder, owned whole: its context allocated for a codec, set to
/// the sample format, rate, channel count and bit rate it is fed, opened, fed frames and
/// drained of packets, and freed here, once, after a drain (an encoder closed with frames
/// queued warns "frames left in the queue on closing" for every abandoned stream). Every
/// encoder of this layer is one of these: the MP3 stream's (``MP3Encoder``), a live
/// variant's (``AACEncoder``) and a join's re-encoded periods' (``PeriodEncoder``).
final class EncoderContext {
    /// What the encoder is fed.
    let format: OutputFormat
    /// The packets' time base: one sample at the format's rate.
    let timeBase: AVRational
    /// Samples per channel in every frame but the last: "If AV_CODEC_CAP_VARIABLE_FRAME_SIZE
    /// is set, then each frame can have any number of samples. If it is not set,
    /// frame->nb_samples must be equal to avctx->frame_size for all frames except the last.
    /// The final frame may be smaller than avctx->frame_size." (avcodec_send_frame). A codec
    /// taking any length leaves `frame_size` 0: AAC's 1024 then.
    private(set) var frameSize: Int32 = 0
    /// How far before the first frame's the first packet starts (`initial_padding`).
    private(set) var priming: Int64 = 0
    /// Packets taken from the encoder so far.
    private(set) var packetsTaken = 0
    /// Samples per channel sent through ``encode(from:count:deliver:)``; also the next such
    /// frame's first sample in ``timeBase``.
    private(set) var samplesSent: Int64 = 0
    /// The most packets the encoder may be asked for, given the samples sent so far (MP3's
    /// frame layout: LAME's flush adds a frame past those for some lengths); nil for all it
    /// gives.
    var packetLimit: ((_ samplesSent: Int64) -> Int)?

    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    /// The frame ``encode(from:count:deliver:)`` fills, made at its first call.
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var state = State.closed

    /// Where the encoder stands.
    private enum State {
        /// Not opened (setup failed): nothing to drain.
        case closed
        /// Open, taking frames.
        case open
        /// Sent its flush (a NULL frame): it takes no more.
        case flushed
    }

    /// The encoder libavcodec has under `name`; `.encoderUnavailable` when this FFmpeg build
    /// has none.
    static func codec(named name: String) throws(TranscodeError) -> UnsafePointer<AVCodec> {
        guard let codec = mhz_avcodec_find_encoder_by_name(name) else { throw .encoderUnavailable(name) }
        return codec
    }

    /// The encoder libavcodec has for `id`; `.encoderUnavailable` (FFmpeg's name of the
    /// codec) when this FFmpeg build has none.
    static func codec(for id: AVCodecID) throws(TranscodeError) -> UnsafePointer<AVCodec> {
        guard let codec = mhz_avcodec_find_encoder(id) else {
            throw .encoderUnavailable(String(cString: mhz_avcodec_get_name(id)))
        }
        return codec
    }

    /// Opens `codec` fed `format` at `bitRate` bit/s.
    init(codec: UnsafePointer<AVCodec>, format: OutputFormat, bitRate: Int64) throws(TranscodeError) {
        self.format = format
        timeBase = AVRational(num: 1, den: format.sampleRate)
        guard let context = mhz_avcodec_alloc_context3(codec), let packet = mhz_av_packet_alloc() else {
            throw Self.outOfMemory
        }
        self.context = context
        self.packet = packet
        context.pointee.sample_fmt = format.sampleFormat
        context.pointee.sample_rate = format.sampleRate
        cffmpeg_layout_default(&context.pointee.ch_layout, format.channels)
        context.pointee.bit_rate = bitRate
        context.pointee.time_base = timeBase
        try FFmpegStatus.check(mhz_avcodec_open2(context, codec, nil), .encode)
        state = .open
        frameSize = context.pointee.frame_size > 0 ? context.pointee.frame_size : 1024
        priming = Int64(context.pointee.initial_padding)
    }

    deinit {
        if case .open = state, let context, let packet, mhz_avcodec_send_frame(context, nil) >= 0 {
            while packetsTaken < limit, mhz_avcodec_receive_packet(context, packet) >= 0 {
                mhz_av_packet_unref(packet)
                packetsTaken += 1
            }
        }
        mhz_av_packet_free(&packet)
        mhz_av_frame_free(&frame)
        mhz_avcodec_free_context(&context)
    }

    /// Writes the encoder's parameters, extradata included (the MPEG-TS muxer frames raw
    /// AAC packets in ADTS from it), into a stream's.
    func copyParameters(to parameters: UnsafeMutablePointer<AVCodecParameters>) throws(TranscodeError) {
        guard let context else { return }
        try FFmpegStatus.check(mhz_avcodec_parameters_from_context(parameters, context), .setup)
    }

    /// Encodes `count` samples (at most ``frameSize``, fewer only for the last frame) taken
    /// from `source` into this encoder's own frame, its `pts` the samples sent before.
    func encode(from source: SampleConverter, count: Int32,
                deliver: (UnsafeMutablePointer<AVPacket>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        let frame = try ownFrame()
        // The encoder may still hold a reference to the last frame's buffer.
        frame.pointee.nb_samples = frameSize
        try FFmpegStatus.check(mhz_av_frame_make_writable(frame), .encode)
        let read = try source.read(into: frame, count: count)
        frame.pointee.nb_samples = read
        frame.pointee.pts = samplesSent
        samplesSent += Int64(read)
        try send(UnsafePointer(frame), deliver: deliver)
    }

    /// Encodes `frame` (its `pts` set by the caller) and hands each packet that comes out to
    /// `deliver`, valid during the call only.
    func encode(_ frame: UnsafePointer<AVFrame>,
                deliver: (UnsafeMutablePointer<AVPacket>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        try send(frame, deliver: deliver)
    }

    /// Sends the flush (a NULL frame: "start draining") and hands out the last packets.
    func flush(deliver: (UnsafeMutablePointer<AVPacket>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        guard case .open = state else { return }
        state = .flushed
        try send(nil, deliver: deliver)
    }

    /// The most packets that may be taken now.
    private var limit: Int { packetLimit?(samplesSent) ?? Int.max }

    /// avcodec_send_frame: "AVERROR(EAGAIN): input is not accepted in the current state -
    /// user must read output with avcodec_receive_packet() (once all output is read, the
    /// packet should be resent, and the call will not fail with EAGAIN)". Input refused
    /// while no packet can be taken would be refused forever: that is a failure.
    private func send(_ frame: UnsafePointer<AVFrame>?,
                      deliver: (UnsafeMutablePointer<AVPacket>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        guard let context else { return }
        while true {
            let status = mhz_avcodec_send_frame(context, frame)
            if status == FFmpegStatus.again {
                let before = packetsTaken
                try receive(deliver)
                if packetsTaken == before {
                    throw .failed(stage: .encode, reason: "the encoder takes no input and gives no packet it may give")
                }
                continue
            }
            try FFmpegStatus.check(status, .encode)
            break
        }
        try receive(deliver)
    }

    /// avcodec_receive_packet until "AVERROR(EAGAIN): output is not available in the current
    /// state - user must try to send input" or "AVERROR_EOF: the encoder has been fully
    /// flushed, and there will be no more output packets", or the packet limit.
    private func receive(_ deliver: (UnsafeMutablePointer<AVPacket>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        guard let context, let packet else { return }
        while packetsTaken < limit {
            let status = mhz_avcodec_receive_packet(context, packet)
            if status == FFmpegStatus.again || status == FFmpegStatus.endOfFile { return }
            try FFmpegStatus.check(status, .encode)
            defer { mhz_av_packet_unref(packet) }
            packetsTaken += 1
            try deliver(packet)
        }
    }

    /// The frame ``encode(from:count:deliver:)`` fills: the encoder's format, rate, layout
    /// and ``frameSize`` samples.
    private func ownFrame() throws(TranscodeError) -> UnsafeMutablePointer<AVFrame> {
        if let frame { return frame }
        guard let context, let made = mhz_av_frame_alloc() else { throw Self.outOfMemory }
        made.pointee.format = format.sampleFormat.rawValue
        made.pointee.sample_rate = format.sampleRate
        made.pointee.nb_samples = frameSize
        var status = mhz_av_channel_layout_copy(&made.pointee.ch_layout, &context.pointee.ch_layout)
        if status >= 0 { status = mhz_av_frame_get_buffer(made, 0) }
        guard status >= 0 else {
            var failed: UnsafeMutablePointer<AVFrame>? = made
            mhz_av_frame_free(&failed)
            throw .failed(stage: .encode, reason: FFmpegStatus.describe(status))
        }
        frame = made
        return made
    }

    private static var outOfMemory: TranscodeError {
        .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
    }
}
