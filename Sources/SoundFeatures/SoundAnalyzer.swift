import Foundation
import MusicLibrary
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
/// **Loudness in the same pass.** When libebur128 is there, the whole file is decoded once
/// from its start: every frame at its own rate and layout to a ``LoudnessMeter``, the frames
/// of the excerpt also to aubio as above (the excerpt chosen by decoding to it, not by a
/// seek), and what follows the excerpt to the meter alone. Without libebur128 (or with
/// `loudness: false`), the excerpt is sought to as before and ``SoundAnalysis/loudness`` is
/// `nil`: the features do not depend on the meter.
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
    /// - Parameters:
    ///   - loudness: measure the whole file's loudness too (when libebur128 is there);
    ///     `false` decodes only the excerpt, as the analysis did before loudness.
    ///   - shouldStop: asked between chunks of audio (about every 0.4 s of it): the
    ///     analysis gives up with `.stopped` when it says so.
    /// - Returns: the features, how many seconds of audio they were measured over, and the
    ///   loudness when it was measured.
    /// - Throws: `.unreadable` for a file FFmpeg cannot read, or one with no sound in it;
    ///   `.unavailable` when FFmpeg or aubio cannot be loaded; `.stopped`.
    package static func analyze(_ file: URL, loudness: Bool = true,
                                shouldStop: () -> Bool = { false }) throws(SoundAnalysisError) -> SoundAnalysis {
        let decoder: PCMDecoder
        do {
            decoder = try PCMDecoder(input: file, sampleRate: sampleRate)
        } catch {
            throw Self.classify(error)
        }
        let frames = try AubioFrames(sampleRate: sampleRate)
        let meter = loudness ? Self.meter(tapping: decoder) : nil
        if let duration = decoder.declaredDuration, duration > excerptSeconds {
            let start = (duration - excerptSeconds) / 2
            if meter != nil { decoder.excerpt(fromSeconds: start) } else { _ = decoder.seek(toSeconds: start) }
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
        var measured: Loudness?
        if let meter {
            // true: decoded to the end; false: told to stop; nil: the tail could not be
            // decoded, which voids only the loudness (the excerpt was heard).
            let finished: Bool?
            do { finished = try decoder.drainToEnd(shouldStop: shouldStop) } catch { finished = nil }
            if finished == false { throw .stopped }
            measured = finished == true ? meter.measurement() : nil
        }
        return SoundAnalysis(features: statistics.features(seconds: seconds), seconds: seconds, loudness: measured)
    }

    /// A loudness meter fed every frame `decoder` decodes, or `nil` when libebur128 is
    /// missing or the stream declares no rate (the meter and the tap both refuse one): the
    /// features are measured anyway.
    private static func meter(tapping decoder: PCMDecoder) -> LoudnessMeter? {
        guard LoudnessMeter.isAvailable else { return nil }
        let native = decoder.nativeFormat
        let channels = LoudnessMeter.channels(measuring: native.channels)
        do {
            let meter = try LoudnessMeter(channels: channels, sampleRate: native.sampleRate)
            try decoder.tapNative(channels: channels) { meter.add($0) }
            return meter
        } catch {
            return nil
        }
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
    /// The whole file's loudness, `nil` when it was not measured (libebur128 missing, or
    /// the file's end could not be decoded).
    package var loudness: Loudness? = nil
}
