import CFFmpeg

/// libavcodec's native AAC encoder (`aac`, AAC-LC) at 44.1 kHz stereo and one bit rate: one
/// variant of a live broadcast. Every variant is fed the very same frames, with the same
/// timestamps, so their packets start and end at the same samples and segments cut at a
/// packet's timestamp line up across variants.
///
/// The encoder delays its output by its priming (`initial_padding`, 1024 samples): a
/// packet's `pts` is the sample its audio starts at, the first one's `1024` before the first
/// frame's.
final class AACEncoder {
    /// The encoder's time base: one sample at ``LiveEncoder/sampleRate``.
    let timeBase = AVRational(num: 1, den: LiveEncoder.sampleRate)
    /// Samples per channel in each frame it takes (1024).
    let frameSize: Int32
    /// How far before the first frame's the first packet starts (`initial_padding`: 1024).
    let priming: Int64
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?

    /// Opens the encoder at `kbps` kbit/s.
    init(kbps: Int) throws(TranscodeError) {
        guard let codec = mhz_avcodec_find_encoder_by_name("aac") else { throw .encoderUnavailable("aac") }
        guard let context = mhz_avcodec_alloc_context3(codec), let packet = mhz_av_packet_alloc() else {
            frameSize = 0
            priming = 0
            throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
        }
        self.context = context
        self.packet = packet
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        context.pointee.sample_rate = LiveEncoder.sampleRate
        cffmpeg_layout_default(&context.pointee.ch_layout, 2)
        context.pointee.bit_rate = Int64(kbps) * 1000
        context.pointee.time_base = timeBase
        let opened = mhz_avcodec_open2(context, codec, nil)
        frameSize = context.pointee.frame_size > 0 ? context.pointee.frame_size : 1024
        priming = Int64(context.pointee.initial_padding)
        try FFmpegStatus.check(opened, .encode)
    }

    deinit {
        // Drained first, so closing does not warn of frames left in its queue.
        if let context, let packet, mhz_avcodec_send_frame(context, nil) >= 0 {
            while mhz_avcodec_receive_packet(context, packet) >= 0 { mhz_av_packet_unref(packet) }
        }
        mhz_av_packet_free(&packet)
        mhz_avcodec_free_context(&context)
    }

    /// Writes the encoder's parameters, extradata included (the MPEG-TS muxer frames raw
    /// AAC packets in ADTS from it), into a stream's.
    func copyParameters(to parameters: UnsafeMutablePointer<AVCodecParameters>) throws(TranscodeError) {
        guard let context else { return }
        try FFmpegStatus.check(mhz_avcodec_parameters_from_context(parameters, context), .setup)
    }

    /// Encodes `frame` (``frameSize`` samples, its `pts` set) and hands each packet that
    /// comes out to `deliver`, valid during the call only.
    func encode(_ frame: UnsafePointer<AVFrame>,
                deliver: (UnsafeMutablePointer<AVPacket>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        guard let context, let packet else { return }
        try EncoderExchange.send(frame, context: context, packet: packet, deliver: deliver)
    }
}
