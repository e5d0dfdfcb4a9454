import CFFmpeg

/// libavcodec's encoder for the first period's codec (AAC, MP3, AC-3…), opened at the first
/// period's sample rate, channel count and bit rate, so a period in another codec is
/// re-encoded into samples the first period's decoder keeps decoding. Fed from a
/// ``SampleConverter`` one ``EncoderContext/frameSize`` at a time (1024 for AAC, 1152 or
/// 576 for MP3).
enum PeriodEncoder {
    /// Opens the encoder libavcodec has for `target`'s codec with its rate, channels and bit
    /// rate (a bit rate of 0 means 128 kbit/s, 64 for mono), fed `fltp` when it takes it,
    /// else the first sample format it lists.
    static func open(like target: UnsafePointer<AVCodecParameters>) throws(TranscodeError) -> EncoderContext {
        let codec = try EncoderContext.codec(for: target.pointee.codec_id)
        let channels = max(1, target.pointee.ch_layout.nb_channels)
        let formats = OutputFormat.list(codec.pointee.sample_fmts, end: AV_SAMPLE_FMT_NONE)
        let sampleFormat = formats.contains(AV_SAMPLE_FMT_FLTP) || formats.isEmpty ? AV_SAMPLE_FMT_FLTP : formats[0]
        let format = OutputFormat(sampleRate: target.pointee.sample_rate, channels: channels, sampleFormat: sampleFormat)
        let given = target.pointee.bit_rate
        return try EncoderContext(codec: codec, format: format, bitRate: given > 0 ? given : (channels == 1 ? 64000 : 128_000))
    }

    /// Encodes what `converter` holds into `encoder`: whole frames, and with `final` the
    /// rest and the encoder's delayed packets. Each packet goes to `deliver`, valid during
    /// the call only.
    static func encode(_ encoder: EncoderContext, from converter: SampleConverter, final: Bool,
                       deliver: (UnsafeMutablePointer<AVPacket>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        let frameSize = encoder.frameSize
        while converter.available >= frameSize || (final && converter.available > 0) {
            try encoder.encode(from: converter, count: min(frameSize, converter.available), deliver: deliver)
        }
        if final { try encoder.flush(deliver: deliver) }
    }
}
