import CFFmpeg

/// libavcodec's encoder for the first period's codec (AAC, MP3, AC-3…), opened at the first
/// period's sample rate, channel count and bit rate, so a period in another codec is
/// re-encoded into samples the first period's decoder keeps decoding. Fed from a
/// ``SampleConverter`` one `frame_size` at a time.
final class PeriodEncoder {
    /// What the encoder is fed.
    let format: OutputFormat
    /// Samples per channel in every frame but the last (1024 for AAC, 1152 or 576 for MP3).
    let frameSize: Int32
    /// The time base of the packets' timestamps: one sample.
    let timeBase: AVRational
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var flushed = false
    private var nextPTS: Int64 = 0

    /// Opens the encoder libavcodec has for `codec` with the rate, channels and bit rate of
    /// `target` (a bit rate of 0 means 128 kbit/s, 64 for mono).
    init(like target: UnsafePointer<AVCodecParameters>) throws(TranscodeError) {
        let id = target.pointee.codec_id
        guard let codec = mhz_avcodec_find_encoder(id) else {
            throw .encoderUnavailable(String(cString: mhz_avcodec_get_name(id)))
        }
        let channels = max(1, target.pointee.ch_layout.nb_channels)
        let formats = Self.list(codec.pointee.sample_fmts, end: AV_SAMPLE_FMT_NONE)
        let sampleFormat = formats.contains(AV_SAMPLE_FMT_FLTP) || formats.isEmpty ? AV_SAMPLE_FMT_FLTP : formats[0]
        format = OutputFormat(sampleRate: target.pointee.sample_rate, channels: channels, sampleFormat: sampleFormat)
        timeBase = AVRational(num: 1, den: format.sampleRate)
        guard let context = mhz_avcodec_alloc_context3(codec), let frame = mhz_av_frame_alloc(),
              let packet = mhz_av_packet_alloc()
        else {
            frameSize = 0
            throw .failed(stage: .setup, reason: FFmpegStatus.describe(cffmpeg_error_from_errno(ENOMEM)))
        }
        self.context = context
        self.frame = frame
        self.packet = packet
        context.pointee.sample_fmt = sampleFormat
        context.pointee.sample_rate = format.sampleRate
        cffmpeg_layout_default(&context.pointee.ch_layout, channels)
        let given = target.pointee.bit_rate
        context.pointee.bit_rate = given > 0 ? given : (channels == 1 ? 64000 : 128_000)
        context.pointee.time_base = timeBase
        let opened = mhz_avcodec_open2(context, codec, nil)
        // A codec taking any frame length leaves frame_size 0: AAC's 1024 then.
        frameSize = context.pointee.frame_size > 0 ? context.pointee.frame_size : 1024
        try FFmpegStatus.check(opened, .encode)
        frame.pointee.format = sampleFormat.rawValue
        frame.pointee.sample_rate = format.sampleRate
        frame.pointee.nb_samples = frameSize
        try FFmpegStatus.check(mhz_av_channel_layout_copy(&frame.pointee.ch_layout, &context.pointee.ch_layout), .encode)
        try FFmpegStatus.check(mhz_av_frame_get_buffer(frame, 0), .encode)
    }

    deinit {
        // Drained first, so closing does not warn of frames left in its queue.
        if !flushed, let context, let packet, mhz_avcodec_send_frame(context, nil) >= 0 {
            while mhz_avcodec_receive_packet(context, packet) >= 0 { mhz_av_packet_unref(packet) }
        }
        mhz_av_packet_free(&packet)
        mhz_av_frame_free(&frame)
        mhz_avcodec_free_context(&context)
    }

    /// Writes the encoder's parameters (extradata included: MPEG-TS needs AAC's to frame
    /// raw packets) into a stream's.
    func copyParameters(to parameters: UnsafeMutablePointer<AVCodecParameters>) throws(TranscodeError) {
        guard let context else { return }
        try FFmpegStatus.check(mhz_avcodec_parameters_from_context(parameters, context), .setup)
    }

    /// Encodes what the converter holds: whole frames, and with `final` the rest and the
    /// encoder's delayed packets. Each packet goes to `deliver`, valid during the call only.
    func encode(from converter: SampleConverter, final: Bool,
                deliver: (UnsafeMutablePointer<AVPacket>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        while converter.available >= frameSize || (final && converter.available > 0) {
            try encodeFrame(from: converter, count: min(frameSize, converter.available), deliver: deliver)
        }
        if final {
            flushed = true
            try send(nil, deliver)
        }
    }

    private func encodeFrame(from converter: SampleConverter, count: Int32,
                             deliver: (UnsafeMutablePointer<AVPacket>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        guard let frame else { return }
        // The encoder may still hold a reference to the last frame's buffer.
        frame.pointee.nb_samples = frameSize
        try FFmpegStatus.check(mhz_av_frame_make_writable(frame), .encode)
        let read = try converter.read(into: frame, count: count)
        frame.pointee.nb_samples = read
        frame.pointee.pts = nextPTS
        nextPTS += Int64(read)
        try send(frame, deliver)
    }

    private func send(_ frame: UnsafeMutablePointer<AVFrame>?,
                      _ deliver: (UnsafeMutablePointer<AVPacket>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        guard let context, let packet else { return }
        try EncoderExchange.send(frame.map { UnsafePointer($0) }, context: context, packet: packet, deliver: deliver)
    }

    /// The elements of a C array ended by `end` (what a codec supports).
    private static func list<Element: Equatable>(_ pointer: UnsafePointer<Element>?, end: Element) -> [Element] {
        guard var pointer else { return [] }
        var elements: [Element] = []
        while pointer.pointee != end {
            elements.append(pointer.pointee)
            pointer += 1
        }
        return elements
    }
}
