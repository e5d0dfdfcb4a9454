import CFFmpeg

/// libavcodec's `libmp3lame` encoder at a constant bit rate, fed from a `SampleConverter`'s
/// FIFO one `frame_size` at a time, handing each MP3 packet on as soon as LAME gives it.
///
/// It takes exactly the frames that carry the input (``MP3FrameLayout/frames(carrying:)``)
/// and never asks for one LAME's flush adds past them (it does for some lengths of input,
/// about one in twenty): asking for it made the wrapper log "Trying to remove 1152 samples,
/// but the queue is empty" at such a song's end, and made the stream a frame longer than
/// its announced length.
final class MP3Encoder {
    /// The encoder FFmpeg must have been built with (Debian's is).
    static let encoderName = "libmp3lame"

    /// What the encoder is fed.
    let format: OutputFormat
    /// Samples per channel in every frame but the last: "If AV_CODEC_CAP_VARIABLE_FRAME_SIZE
    /// is set, then each frame can have any number of samples. If it is not set,
    /// frame->nb_samples must be equal to avctx->frame_size for all frames except the last.
    /// The final frame may be smaller than avctx->frame_size." (avcodec_send_frame). LAME
    /// sets 1152 (MPEG-1) or 576 (MPEG-2).
    let frameSize: Int32
    /// The stream's frame sizes and padding, known once the encoder is open.
    let layout: MP3FrameLayout
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    /// The encoder was sent its flush frame.
    private var flushed = false
    /// Samples sent so far (per channel); also the next frame's first sample in the
    /// encoder's time base (1/rate).
    private var samplesSent: Int64 = 0
    /// Packets (one MP3 frame each) taken from the encoder so far.
    private(set) var packetsTaken = 0

    /// Opens the encoder: CBR, since libmp3lame is constant-rate unless asked for VBR
    /// (`AV_CODEC_FLAG_QSCALE`) or ABR (its `abr` option), so every frame header carries
    /// `kbps`.
    init(inputRate: Int32, inputChannels: Int32, kbps: Int) throws(TranscodeError) {
        guard let codec = mhz_avcodec_find_encoder_by_name(Self.encoderName) else {
            throw .encoderUnavailable(Self.encoderName)
        }
        format = OutputFormat.choose(for: codec, inputRate: inputRate, inputChannels: inputChannels, kbps: kbps)
        guard let context = mhz_avcodec_alloc_context3(codec), let frame = mhz_av_frame_alloc(), let packet = mhz_av_packet_alloc() else {
            frameSize = 0
            layout = MP3FrameLayout(sampleRate: 1, kbps: kbps, samplesPerFrame: 1, initialPadding: 0)
            throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
        }
        self.context = context
        self.frame = frame
        self.packet = packet
        context.pointee.sample_fmt = format.sampleFormat
        context.pointee.sample_rate = format.sampleRate
        cffmpeg_layout_default(&context.pointee.ch_layout, format.channels)
        context.pointee.bit_rate = Int64(kbps) * 1000
        context.pointee.time_base = AVRational(num: 1, den: format.sampleRate)
        let opened = mhz_avcodec_open2(context, codec, nil)
        frameSize = context.pointee.frame_size
        layout = MP3FrameLayout(sampleRate: Int(format.sampleRate), kbps: kbps, samplesPerFrame: Int(frameSize),
                                initialPadding: Int(context.pointee.initial_padding))
        try FFmpegStatus.check(opened, .encode)

        frame.pointee.format = format.sampleFormat.rawValue
        frame.pointee.sample_rate = format.sampleRate
        frame.pointee.nb_samples = frameSize
        try FFmpegStatus.check(mhz_av_channel_layout_copy(&frame.pointee.ch_layout, &context.pointee.ch_layout), .encode)
        try FFmpegStatus.check(mhz_av_frame_get_buffer(frame, 0), .encode)
    }

    deinit {
        // An encoder closed with input frames queued logs a warning ("frames left in the
        // queue on closing") at every abandoned stream: drain it, dropping the packets that
        // carry them, first; no further (see the type's comment).
        if !flushed, let context, let packet, mhz_avcodec_send_frame(context, nil) >= 0 {
            while packetsTaken < owed, mhz_avcodec_receive_packet(context, packet) >= 0 {
                mhz_av_packet_unref(packet)
                packetsTaken += 1
            }
        }
        mhz_av_packet_free(&packet)
        mhz_av_frame_free(&frame)
        mhz_avcodec_free_context(&context)
    }

    /// The open codec context, which the muxer copies its stream's parameters from.
    var codecContext: UnsafePointer<AVCodecContext>? { UnsafePointer(context) }

    /// Encodes `count` samples (at most `frameSize`, fewer only for the last frame) taken
    /// from `source`, and hands every packet that comes out to `deliver` (valid during the
    /// call only).
    func encode(from source: SampleConverter, count: Int32,
                deliver: (UnsafeMutablePointer<AVPacket>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        guard let frame else { return }
        // The encoder may still hold a reference to the last frame's buffer.
        frame.pointee.nb_samples = frameSize
        try FFmpegStatus.check(mhz_av_frame_make_writable(frame), .encode)
        let read = try source.read(into: frame, count: count)
        frame.pointee.nb_samples = read
        frame.pointee.pts = samplesSent
        samplesSent += Int64(read)
        try send(frame, deliver)
    }

    /// Flushes the encoder (LAME holds about two frames back) and hands out its last
    /// packets: exactly those that carry the input.
    ///
    /// - Throws: `.failed(.encode, …)` if LAME ended with fewer frames (it never does: its
    ///   flush pads more than the wrapper counts).
    func finish(deliver: (UnsafeMutablePointer<AVPacket>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        flushed = true
        try send(nil, deliver)
        if packetsTaken < owed {
            throw .failed(stage: .encode, reason: "the encoder ended after \(packetsTaken) of \(owed) frames")
        }
    }

    /// The packets that carry the samples sent so far: all the encoder may be asked for.
    private var owed: Int { layout.frames(carrying: Int(samplesSent)) }

    /// avcodec_send_frame: "AVERROR(EAGAIN): input is not accepted in the current state -
    /// user must read output with avcodec_receive_packet() (once all output is read, the
    /// packet should be resent, and the call will not fail with EAGAIN)"; a NULL frame
    /// starts draining.
    private func send(_ frame: UnsafeMutablePointer<AVFrame>?,
                      _ deliver: (UnsafeMutablePointer<AVPacket>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        guard let context else { return }
        while true {
            let status = mhz_avcodec_send_frame(context, frame)
            if status == FFmpegStatus.again {
                let before = packetsTaken
                try receivePackets(deliver)
                // Input refused while every packet owed was taken: nothing would change.
                if packetsTaken == before {
                    throw .failed(stage: .encode, reason: "the encoder takes no input with every frame owed taken")
                }
                continue
            }
            try FFmpegStatus.check(status, .encode)
            break
        }
        try receivePackets(deliver)
    }

    /// avcodec_receive_packet: "AVERROR(EAGAIN): output is not available in the current
    /// state - user must try to send input; AVERROR_EOF: the encoder has been fully flushed,
    /// and there will be no more output packets." Stops at the packets ``owed``: while
    /// encoding LAME lags the input, so it is never reached before the flush.
    private func receivePackets(_ deliver: (UnsafeMutablePointer<AVPacket>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        guard let context, let packet else { return }
        while packetsTaken < owed {
            let status = mhz_avcodec_receive_packet(context, packet)
            if status == FFmpegStatus.again || status == FFmpegStatus.endOfFile { return }
            try FFmpegStatus.check(status, .encode)
            defer { mhz_av_packet_unref(packet) }
            packetsTaken += 1
            try deliver(packet)
        }
    }
}
