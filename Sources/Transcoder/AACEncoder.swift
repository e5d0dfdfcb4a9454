import CFFmpeg

/// libavcodec's native AAC encoder (`aac`, AAC-LC) at 44.1 kHz stereo and one bit rate: one
/// variant of a live broadcast. Every variant is fed the very same frames, with the same
/// timestamps, so their packets start and end at the same samples and segments cut at a
/// packet's timestamp line up across variants.
///
/// The encoder delays its output by its priming (``EncoderContext/priming``,
/// `initial_padding`: 1024 samples): a packet's `pts` is the sample its audio starts at, the
/// first one's `1024` before the first frame's. It takes frames of
/// ``EncoderContext/frameSize`` (1024) samples.
enum AACEncoder {
    /// The encoder's name in libavcodec.
    static let encoderName = "aac"

    /// Opens the encoder at `kbps` kbit/s, its time base one sample at
    /// ``LiveEncoder/sampleRate``.
    static func open(kbps: Int) throws(TranscodeError) -> EncoderContext {
        let codec = try EncoderContext.codec(named: encoderName)
        let format = OutputFormat(sampleRate: LiveEncoder.sampleRate, channels: 2, sampleFormat: AV_SAMPLE_FMT_FLTP)
        return try EncoderContext(codec: codec, format: format, bitRate: Int64(kbps) * 1000)
    }
}
