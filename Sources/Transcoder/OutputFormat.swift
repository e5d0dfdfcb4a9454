import CFFmpeg

/// What the MP3 encoder is fed: sample rate, channel count and sample format, chosen from
/// the input and what `libmp3lame` accepts, so that the bit rate asked is one the MP3
/// frame header can carry (and so what ffprobe reads back).
struct OutputFormat {
    /// Samples per second per channel.
    let sampleRate: Int32
    /// 1 (mono) or 2 (stereo): MP3 carries no more.
    let channels: Int32
    /// `fltp` when the encoder takes it (what Vorbis, Opus, AAC and MP3 decoders give, so
    /// most inputs need no conversion), else `s16p`.
    let sampleFormat: AVSampleFormat

    /// MPEG-1 Layer III rates, where every bit rate of `AudioTranscoder.supportedBitrates`
    /// exists.
    static let mpeg1Rates: Set<Int32> = [32000, 44100, 48000]
    /// MPEG-2 Layer III rates.
    static let mpeg2Rates: Set<Int32> = [16000, 22050, 24000]
    /// Bit rates (kbit/s) of MPEG-2 Layer III: at those rates 192 kbit/s, for one, does not
    /// exist and LAME would pick another.
    static let mpeg2Bitrates: Set<Int> = [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
    /// Bit rates (kbit/s) LAME has at the MPEG-2.5 rates (8, 11.025, 12 kHz): its table for
    /// that unofficial extension stops at 64, and a higher rate asked comes out at 64.
    static let mpeg25Bitrates: Set<Int> = [8, 16, 24, 32, 40, 48, 56, 64]
    /// The rate used when the input's cannot be kept.
    static let fallbackRate: Int32 = 44100

    /// Keeps the input's rate when the encoder supports it and `kbps` exists at that rate,
    /// else 44.1 kHz; keeps mono as mono and mixes anything wider down to stereo.
    static func choose(for encoder: UnsafePointer<AVCodec>, inputRate: Int32, inputChannels: Int32,
                       kbps: Int) -> OutputFormat {
        let supported = list(encoder.pointee.supported_samplerates, end: 0)
        let rateFits = mpeg1Rates.contains(inputRate)
            || (mpeg2Rates.contains(inputRate) && mpeg2Bitrates.contains(kbps))
            || mpeg25Bitrates.contains(kbps)
        let rate = supported.contains(inputRate) && rateFits ? inputRate : fallbackRate
        let formats = list(encoder.pointee.sample_fmts, end: AV_SAMPLE_FMT_NONE)
        let format = formats.contains(AV_SAMPLE_FMT_FLTP) || formats.isEmpty ? AV_SAMPLE_FMT_FLTP : AV_SAMPLE_FMT_S16P
        return OutputFormat(sampleRate: rate, channels: inputChannels == 1 ? 1 : 2, sampleFormat: format)
    }

    /// The elements of a C array terminated by `end` (FFmpeg's lists of what a codec supports).
    static func list<Element: Equatable>(_ pointer: UnsafePointer<Element>?, end: Element) -> [Element] {
        guard var pointer else { return [] }
        var elements: [Element] = []
        while pointer.pointee != end {
            elements.append(pointer.pointee)
            pointer += 1
        }
        return elements
    }
}
