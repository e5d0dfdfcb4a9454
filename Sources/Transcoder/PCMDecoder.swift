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
/// **Blocking**, like the transcoder: call it from a thread of its own. Not `Sendable`: one
/// thread at a time. Dropping it frees every FFmpeg structure it holds.
public final class PCMDecoder {
    /// The rate samples come out at (Hz).
    public let sampleRate: Int
    /// The audio's length in seconds as the file declares it, `nil` when it declares none.
    public let declaredDuration: Double?

    private let decoder: AudioDecoder
    private let converter: SampleConverter
    /// The input has been decoded to its end and the resampler drained.
    private var inputEnded = false
    /// Samples have been read: seeking is no longer allowed.
    private var started = false

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
            let more = try decoder.step { (frame) throws(TranscodeError) in try converter.push(frame) }
            if !more {
                try converter.flush()
                inputEnded = true
            }
        }
        let count = min(wanted, converter.available)
        guard count > 0 else { return 0 }
        return Int(try converter.read(into: UnsafeMutableRawPointer(base), count: count))
    }
}
