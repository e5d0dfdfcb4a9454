import CFFmpeg

/// libavcodec's `libmp3lame` encoder at a constant bit rate, fed from a `SampleConverter`'s
/// FIFO one `frame_size` at a time (1152 samples at MPEG-1 rates, 576 at MPEG-2's), handing
/// each MP3 packet on as soon as LAME gives it.
///
/// It takes exactly the frames that carry the input (``MP3FrameLayout/frames(carrying:)``)
/// and never asks for one LAME's flush adds past them (it does for some lengths of input,
/// about one in twenty): asking for it made the wrapper log "Trying to remove 1152 samples,
/// but the queue is empty" at such a song's end, and made the stream a frame longer than
/// its announced length. The encoder's ``EncoderContext/packetLimit`` is that count.
final class MP3Encoder {
    /// The encoder FFmpeg must have been built with (Debian's is).
    static let encoderName = "libmp3lame"

    /// The encoder itself, which the muxer copies its stream's parameters from.
    let codec: EncoderContext
    /// The stream's frame sizes and padding, known once the encoder is open.
    let layout: MP3FrameLayout

    /// Opens the encoder: CBR, since libmp3lame is constant-rate unless asked for VBR
    /// (`AV_CODEC_FLAG_QSCALE`) or ABR (its `abr` option), so every frame header carries
    /// `kbps`.
    init(inputRate: Int32, inputChannels: Int32, kbps: Int) throws(TranscodeError) {
        let found = try EncoderContext.codec(named: Self.encoderName)
        let format = OutputFormat.choose(for: found, inputRate: inputRate, inputChannels: inputChannels, kbps: kbps)
        codec = try EncoderContext(codec: found, format: format, bitRate: Int64(kbps) * 1000)
        let layout = MP3FrameLayout(sampleRate: Int(format.sampleRate), kbps: kbps, samplesPerFrame: Int(codec.frameSize),
                                    initialPadding: Int(codec.priming))
        self.layout = layout
        codec.packetLimit = { samples in layout.frames(carrying: Int(samples)) }
    }

    /// What the encoder is fed.
    var format: OutputFormat { codec.format }

    /// Samples per channel in every frame but the last.
    var frameSize: Int32 { codec.frameSize }

    /// Encodes `count` samples (at most ``frameSize``, fewer only for the last frame) taken
    /// from `source`, and hands every packet that comes out to `deliver` (valid during the
    /// call only).
    func encode(from source: SampleConverter, count: Int32,
                deliver: (UnsafeMutablePointer<AVPacket>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        try codec.encode(from: source, count: count, deliver: deliver)
    }

    /// Flushes the encoder (LAME holds about two frames back) and hands out its last
    /// packets: exactly those that carry the input.
    ///
    /// - Throws: `.failed(.encode, …)` if LAME ended with fewer frames (it never does: its
    ///   flush pads more than the wrapper counts).
    func finish(deliver: (UnsafeMutablePointer<AVPacket>) throws(TranscodeError) -> Void) throws(TranscodeError) {
        try codec.flush(deliver: deliver)
        let owed = layout.frames(carrying: Int(codec.samplesSent))
        if codec.packetsTaken < owed {
            throw .failed(stage: .encode, reason: "the encoder ended after \(codec.packetsTaken) of \(owed) frames")
        }
    }
}
