import Foundation
import Transcoder

/// Measures one file's sound: decodes it through ``Transcoder``'s `PCMDecoder` to mono
/// float samples at ``sampleRate``, feeds them hop by hop to aubio (``AubioFrames``) and
/// sums the frames up (``FrameStatistics``) into the ``SoundFeature`` vector.
///
/// **An excerpt.** A file longer than ``excerptSeconds`` is analysed over that many seconds
/// from its middle (sought to, not decoded to): the middle of a song is its body, its
/// length bounds the cost of an hour-long mix, and the features are means and spreads,
/// which two minutes settle. Shorter files are analysed whole.
///
/// Blocking, on the caller's thread; safe to call on several threads at once (each call has
/// its own FFmpeg and aubio objects). The same file always gives the same numbers.
package enum SoundAnalyzer {
    /// The rate the audio is analysed at (Hz): half of CD's, up to 11 kHz of content, which
    /// is where timbre and rhythm live, for half the work.
    package static let sampleRate = 22_050
    /// The longest stretch of a file analysed (seconds).
    package static let excerptSeconds = 120.0
    /// Samples decoded per read: sixteen hops.
    static let chunk = AubioFrames.hopSize * 16

    /// Analyses `file`.
    ///
    /// - Parameter shouldStop: asked between chunks of audio (about every 0.4 s of it): the
    ///   analysis gives up with `.stopped` when it says so.
    /// - Returns: the features and how many seconds of audio they were measured over.
    /// - Throws: `.unreadable` for a file FFmpeg cannot read, or one with no sound in it;
    ///   `.unavailable` when FFmpeg or aubio cannot be loaded; `.stopped`.
    package static func analyze(_ file: URL, shouldStop: () -> Bool = { false }) throws(SoundAnalysisError) -> SoundAnalysis {
        let decoder: PCMDecoder
        do {
            decoder = try PCMDecoder(input: file, sampleRate: sampleRate)
        } catch {
            throw Self.classify(error)
        }
        let frames = try AubioFrames(sampleRate: sampleRate)
        if let duration = decoder.declaredDuration, duration > excerptSeconds {
            _ = decoder.seek(toSeconds: (duration - excerptSeconds) / 2)
        }
        var statistics = FrameStatistics(frames: frames)
        let limit = Int(excerptSeconds * Double(sampleRate))
        let hop = AubioFrames.hopSize
        var buffer = [Float](repeating: 0, count: chunk)
        var analysed = 0
        while analysed + hop <= limit {
            if shouldStop() { throw .stopped }
            let wanted = min(chunk, (limit - analysed) / hop * hop)
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBufferPointer { (all) throws(TranscodeError) -> Int in
                    try decoder.read(into: UnsafeMutableBufferPointer(rebasing: all[..<wanted]))
                }
            } catch {
                throw Self.classify(error)
            }
            // Only whole hops: the last few milliseconds of a file are left out.
            let hops = count / hop
            buffer.withUnsafeBufferPointer { samples in
                for index in 0..<hops {
                    let start = samples.baseAddress! + index * hop
                    statistics.add(frames.process(start), from: frames)
                }
            }
            analysed += hops * hop
            if count < wanted { break }
        }
        guard analysed > 0 else { throw .unreadable(reason: "no sound decoded") }
        let seconds = Double(analysed) / Double(sampleRate)
        return SoundAnalysis(features: statistics.features(seconds: seconds), seconds: seconds)
    }

    /// What a decoding failure means here: FFmpeg missing is the machine's problem, anything
    /// else the file's.
    private static func classify(_ error: TranscodeError) -> SoundAnalysisError {
        switch error {
        case .librariesUnavailable(let reason): return .unavailable(reason: reason)
        case .cannotOpen(_, let reason): return .unreadable(reason: reason)
        case .noAudioStream: return .unreadable(reason: "no audio stream")
        case .decoderUnavailable(let codec): return .unreadable(reason: "no decoder for \(codec)")
        case .failed(let stage, let reason): return .unreadable(reason: "\(stage.rawValue): \(reason)")
        case .encoderUnavailable, .unsupportedBitrate, .cannotWrite, .unjoinable:
            return .unreadable(reason: "\(error)")
        }
    }
}

/// One file's measured sound.
package struct SoundAnalysis: Sendable, Equatable {
    /// The ``SoundFeature`` values, in order.
    package var features: [Float]
    /// The seconds of audio they were measured over.
    package var seconds: Double
}
