import CFFmpeg
import Foundation

/// A song's sound as mono 32-bit float samples at one fixed rate, decoded a chunk at a
/// time: what the station's sound analysis reads. Any file FFmpeg reads (a video's sound
/// too), through the same door as ``AudioTranscoder``: FFmpeg's `file` protocol only, the
/// best audio stream, damaged packets skipped.
///
/// The channels are mixed down and the rate converted by libswresample (its default
/// rematrixing: stereo's two channels each at −3 dB), so every file reaches the analysis in
/// one shape whatever its format.
///
/// **One decode, two outputs.** Besides the mono samples, a tap (``tapNative(channels:sink:)``)
/// can receive every decoded frame at the stream's own rate, interleaved: then the file is
/// decoded from its start to its end once, and an excerpt is chosen with
/// ``excerpt(fromSeconds:)`` (frames before it reach only the tap) instead of a seek, and
/// ``drainToEnd(shouldStop:)`` decodes what the excerpt left for the tap.
///
/// **Blocking**, like the transcoder: call it from a thread of its own. Not `Sendable`: one
/// thread at a time. Dropping it frees every FFmpeg structure it holds.
public final class PCMDecoder {
    /// The rate samples come out at (Hz).
    public let sampleRate: Int
    /// The audio's length in seconds as the file declares it, `nil` when it declares none.
    public let declaredDuration: Double?

    private let decoder: AudioDecoder
    private let converter: SampleConverter
    /// Where every decoded frame also goes, when asked for.
    private var tap: NativeTap?
    /// Seconds of audio before the first frame that reaches the mono output.
    private var excerptStart = 0.0
    /// Seconds of audio decoded so far (counted in frames' samples).
    private var decodedSeconds = 0.0
    /// The input has been decoded to its end and the resampler drained.
    private var inputEnded = false
    /// Samples have been read: seeking is no longer allowed.
    private var started = false

    /// The stream's own sample rate (Hz) and channel count as its decoder declares them;
    /// either is 0 when it does not say.
    public var nativeFormat: (sampleRate: Int, channels: Int) {
        (Int(decoder.sampleRate), Int(decoder.channels))
    }

    /// Opens `input` for reading at `sampleRate`.
    ///
    /// - Throws: `.librariesUnavailable` when FFmpeg cannot be loaded; `.cannotOpen`,
    ///   `.noAudioStream` or `.decoderUnavailable` for a file that cannot be read as sound.
    public init(input: URL, sampleRate: Int) throws(TranscodeError) {
        guard mhz_ffmpeg_available() != 0 else {
            throw .librariesUnavailable(reason: String(cString: mhz_ffmpeg_load_error()))
        }
        self.sampleRate = sampleRate
        decoder = try AudioDecoder(path: input.path)
        declaredDuration = decoder.declaredDuration
        converter = try SampleConverter(output: OutputFormat(sampleRate: Int32(sampleRate), channels: 1,
                                                             sampleFormat: AV_SAMPLE_FMT_FLT))
    }

    /// Starts reading at `seconds` from the start of the audio instead of at its start (at
    /// the packet at or before it). Only before the first ``read(into:)``.
    ///
    /// - Returns: whether the file could be sought; when it could not (a stream without an
    ///   index), reading starts at the beginning.
    public func seek(toSeconds seconds: Double) -> Bool {
        guard !started else { return false }
        return decoder.seek(toSeconds: seconds)
    }

    /// Hands every frame decoded from now on to `sink` as interleaved float samples at the
    /// stream's own rate (``nativeFormat``), with `channels` channels: the stream's count
    /// keeps its layout, fewer mixes it down. Only before the first ``read(into:)``.
    ///
    /// - Throws: `.failed(stage: .setup, …)` when FFmpeg cannot allocate the conversion, or
    ///   when the stream declares no rate.
    public func tapNative(channels: Int, sink: @escaping (UnsafeBufferPointer<Float>) -> Void) throws(TranscodeError) {
        guard !started, let rate = Int32(exactly: nativeFormat.sampleRate), rate > 0,
              let count = Int32(exactly: channels), count > 0
        else { throw .failed(stage: .setup, reason: "no native rate or channels to tap") }
        tap = try NativeTap(sampleRate: rate, channels: count, sink: sink)
    }

    /// Starts the mono output at the frame that holds `seconds` from the start, decoding
    /// (for the tap) rather than seeking to it. Only before the first ``read(into:)``.
    public func excerpt(fromSeconds seconds: Double) {
        guard !started, seconds.isFinite, seconds > 0 else { return }
        excerptStart = seconds
    }

    /// Decodes the rest of the input for the tap alone, without filling the mono output.
    ///
    /// - Parameter shouldStop: asked every few packets: reading gives up when it says so.
    /// - Returns: `false` when `shouldStop` stopped it before the end.
    /// - Throws: `.failed(stage:reason:)` when reading or decoding fails on the way.
    public func drainToEnd(shouldStop: () -> Bool) throws(TranscodeError) -> Bool {
        started = true
        guard let tap else { return true }
        var steps = 0
        while !inputEnded {
            steps += 1
            if steps % 64 == 0, shouldStop() { return false }
            let more = try decoder.step { (frame) throws(TranscodeError) in try tap.push(frame) }
            if !more { try endInput() }
        }
        return true
    }

    /// Fills `buffer` with the next samples, decoding as far as it needs.
    ///
    /// - Returns: how many samples were written: `buffer.count` except at the end of the
    ///   audio; 0 once everything has been read.
    /// - Throws: `.failed(stage:reason:)` when reading or decoding fails on the way.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(TranscodeError) -> Int {
        started = true
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        let wanted = Int32(buffer.count)
        let converter = self.converter
        while converter.available < wanted, !inputEnded {
            let more = try decoder.step { (frame) throws(TranscodeError) in try self.take(frame) }
            if !more { try endInput() }
        }
        let count = min(wanted, converter.available)
        guard count > 0 else { return 0 }
        return Int(try converter.read(into: UnsafeMutableRawPointer(base), count: count))
    }

    /// One decoded frame: to the tap, and to the mono output once the excerpt has begun.
    private func take(_ frame: UnsafePointer<AVFrame>) throws(TranscodeError) {
        try tap?.push(frame)
        let rate = frame.pointee.sample_rate
        let length = rate > 0 ? Double(frame.pointee.nb_samples) / Double(rate) : 0
        if decodedSeconds + length > excerptStart { try converter.push(frame) }
        decodedSeconds += length
    }

    /// The decoder has nothing more: both outputs get what their resamplers still hold.
    private func endInput() throws(TranscodeError) {
        try converter.flush()
        try tap?.finish()
        inputEnded = true
    }
}
