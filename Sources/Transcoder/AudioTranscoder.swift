import CFFmpeg
import Foundation

/// One song of the library as a stream of MP3 bytes at the bit rate a client asked for,
/// produced while it is encoded: the station sends the first chunk after a fraction of a
/// second of audio has been encoded, not after the whole song.
///
/// The pipeline is FFmpeg's: the input demuxed and decoded (any format FFmpeg reads: Ogg
/// Vorbis, FLAC, WAV, MP3, M4A, Opus, the sound of a video…), resampled by libswresample to
/// what `libmp3lame` accepts (the input's rate when it can be kept, mono or stereo, wider
/// inputs mixed down to stereo), encoded at a constant bit rate and muxed by the `mp3`
/// muxer into memory. The output starts with an ID3v2 tag carrying the input's title,
/// artist, album, date, genre and track, and has no Xing/LAME header (which would need a
/// seek back), so every byte handed out is final and the stream can be sent as it comes.
///
/// **Its length is known first.** The stream carries exactly the input's declared duration
/// (``durationSamples``, at the output's rate): an input that ends sooner is padded with
/// silence, one that runs on is cut there. With the frames that takes and the CBR frame
/// layout (``MP3FrameLayout``), ``length`` is the exact byte count of the whole stream as
/// soon as `init` returns, so a server can send a `Content-Length` (and answer a `Range`)
/// before the song is encoded.
///
/// **Level.** A ``FrameGain`` given to `init` multiplies every sample on its way to the
/// encoder (after resampling, before encoding): the stream is the song brought to a
/// station's level. Unity, the default, leaves the samples as they are, so the bytes are
/// those of a transcode without a gain. The length does not depend on the gain.
///
/// **Blocking.** Each call does the decoding and encoding it needs on the caller's thread
/// (a song's whole transcoding takes a few hundred milliseconds of CPU): call it from a
/// thread of its own, not from a Swift concurrency executor. An instance is not `Sendable`:
/// one thread at a time.
///
/// **Abandoning.** Dropping the transcoder at any point (a listener disconnected) frees
/// every FFmpeg structure it holds; nothing else needs to be called.
public final class AudioTranscoder {
    /// The bit rates (kbit/s) accepted: those of MPEG-1 Layer III. Anything else would be
    /// rounded by LAME to one of these, and the stream would not carry the rate asked.
    public static let supportedBitrates: [Int] = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]

    /// The chunk size used when none is given: a quarter of a second at 128 kbit/s, a few
    /// dozen MP3 frames' worth of work before the first bytes can leave.
    public static let defaultChunkSize = 4096

    /// The exact number of bytes the whole stream holds: the ID3v2 tag and every frame.
    public let length: Int
    /// The samples per channel the stream carries: the input's declared duration at the
    /// output's sample rate.
    public let durationSamples: Int
    /// The output's sample rate (Hz).
    public let sampleRate: Int
    /// What every sample is multiplied by before it is encoded.
    public let gain: FrameGain

    private let decoder: AudioDecoder
    private let converter: SampleConverter
    private let encoder: MP3Encoder
    private let muxer: MP3Muxer
    private let chunkSize: Int
    private var state = State.running
    /// The input has been read and decoded to its end (the resampler drained too).
    private var inputEnded = false
    /// Samples per channel handed to the encoder so far; never past ``durationSamples``.
    private var samplesEncoded = 0

    private enum State {
        case running
        /// The trailer is written; what is pending is the last of the stream.
        case ended
        /// Every byte has been handed out.
        case done
        /// A step failed; every later call throws the same error.
        case failed(TranscodeError)
    }

    /// Opens `input`, sets up the decoder, resampler, encoder and muxer, writes the ID3v2
    /// tag (the start of the first chunk) and works out ``length``. Fails here, before any
    /// byte is produced, for an input that cannot be read (`.cannotOpen`, `.noAudioStream`,
    /// `.decoderUnavailable`) or a bit rate outside `supportedBitrates`, so the station can
    /// still answer with an error status rather than a broken stream.
    ///
    /// An input that declares no duration (a raw stream) is decoded once here to measure
    /// it: that costs the decoding half of a transcode before the first byte.
    ///
    /// - Parameters:
    ///   - input: a local file (only FFmpeg's `file` protocol is allowed).
    ///   - kbps: the constant bit rate, one of `supportedBitrates`.
    ///   - gain: what every sample is multiplied by before it is encoded (none by default).
    ///   - chunkSize: `nextChunk()` returns once at least this many bytes are ready (or the
    ///     stream ends): larger means fewer, bigger writes to the client; smaller, earlier
    ///     first bytes.
    public init(input: URL, kbps: Int, gain: FrameGain = .unity,
                chunkSize: Int = AudioTranscoder.defaultChunkSize) throws(TranscodeError) {
        guard Self.supportedBitrates.contains(kbps) else { throw .unsupportedBitrate(kbps: kbps) }
        guard mhz_ffmpeg_available() != 0 else {
            throw .librariesUnavailable(reason: String(cString: mhz_ffmpeg_load_error()))
        }
        decoder = try AudioDecoder(path: input.path)
        encoder = try MP3Encoder(inputRate: decoder.sampleRate, inputChannels: decoder.channels, kbps: kbps)
        converter = try SampleConverter(output: encoder.format, gain: gain)
        self.gain = gain
        muxer = try MP3Muxer(encoder: encoder.codec, tags: decoder.tags(MP3Muxer.copiedTags))
        self.chunkSize = max(1, chunkSize)
        let seconds: Double
        if let declared = decoder.declaredDuration {
            seconds = declared
        } else {
            seconds = try AudioDecoder(path: input.path).decodedDuration()
        }
        sampleRate = Int(encoder.format.sampleRate)
        durationSamples = Int((seconds * Double(sampleRate)).rounded())
        let layout = encoder.layout
        length = muxer.written + layout.bytes(ofFirst: layout.frames(carrying: durationSamples))
    }

    /// The next bytes of the MP3 stream: at least the chunk size given to `init` except for
    /// the last chunk; `nil` once the whole stream (trailer included) has been handed out.
    ///
    /// Decodes and encodes only as much of the input as the chunk needs. After an error the
    /// stream is unusable: the same error is thrown again by every later call.
    public func nextChunk() throws(TranscodeError) -> [UInt8]? {
        switch state {
        case .failed(let error): throw error
        case .done: return nil
        case .running, .ended: break
        }
        do {
            while case .running = state, muxer.pending < chunkSize {
                try advance()
            }
        } catch {
            state = .failed(error)
            throw error
        }
        if muxer.pending == 0 {
            state = .done
            return nil
        }
        return muxer.take()
    }

    /// One step of the pipeline: an input packet decoded into the FIFO (or, past the end of
    /// an input that fell short, a frame of silence), every whole frame encoded; once the
    /// stream holds ``durationSamples``, the encoder's last frames and the muxer's trailer.
    private func advance() throws(TranscodeError) {
        let remaining = durationSamples - samplesEncoded
        if remaining > 0, !inputEnded {
            let converter = self.converter
            let more = try decoder.step { (frame) throws(TranscodeError) in try converter.push(frame) }
            if !more {
                try converter.flush()
                inputEnded = true
            }
        } else if remaining > 0 {
            let wanted = Int32(min(Int(encoder.frameSize), remaining))
            if converter.available < wanted { try converter.appendSilence(wanted - converter.available) }
        }
        try encodeBuffered()
        if samplesEncoded == durationSamples {
            try encoder.finish(deliver: muxer.write)
            try muxer.finish()
            if muxer.written != length {
                throw .failed(stage: .mux, reason: "the stream holds \(muxer.written) bytes, not the \(length) announced")
            }
            state = .ended
        }
    }

    /// Encodes every whole `frame_size` of samples in the FIFO up to ``durationSamples``;
    /// the last frame, shorter, as soon as its samples are there (the one frame allowed to
    /// be shorter). Samples past the duration stay in the FIFO, unencoded.
    private func encodeBuffered() throws(TranscodeError) {
        let frameSize = Int(encoder.frameSize)
        while samplesEncoded < durationSamples {
            let wanted = min(frameSize, durationSamples - samplesEncoded)
            guard Int(converter.available) >= wanted else { return }
            try encoder.encode(from: converter, count: Int32(wanted), deliver: muxer.write)
            samplesEncoded += wanted
        }
    }
}
