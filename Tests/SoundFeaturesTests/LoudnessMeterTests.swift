import Foundation
import MusicLibrary
import Testing
import TestSupport
@testable import SoundFeatures

/// Each file's loudness measured in the analysis' one decode, against FFmpeg's `ebur128`
/// filter on the same file (a different implementation of the same standard).
@Suite("Loudness measurement")
struct LoudnessMeterTests {
    /// How far libebur128 and FFmpeg's filter may differ: both gate the same 400 ms blocks,
    /// but FFmpeg's true peak oversamples to 192 kHz and libebur128's 4× (its header:
    /// "custom polyphase FIR interpolator").
    private static let tolerance = 0.3

    @Test("tones mastered 25 dB apart measure as FFmpeg's ebur128 does, 25 LU apart")
    func twoLevels() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-loudness")
        defer { folder.remove() }
        // The same quiet tone as MP3 too: LAME's decoded output is 0.4 dB below the FLAC's,
        // which both meters must see.
        let loud = folder.path("loud.flac"), quiet = folder.path("quiet.flac"), quietMP3 = folder.path("quiet.mp3")
        try await offPool {
            try MediaFactory.tone(at: loud, seconds: 12, frequency: 1000, gainDB: 15)
            try MediaFactory.tone(at: quiet, seconds: 12, frequency: 1000, gainDB: -10)
            try MediaFactory.tone(at: quietMP3, seconds: 12, frequency: 1000, gainDB: -10)
        }
        let files = [loud, quiet, quietMP3]
        let (measured, reference) = try await offPool {
            (try files.map { try SoundAnalyzer.analyze($0).loudness }, try files.map { try LoudnessProbe.measure($0) })
        }
        for (file, (meter, ffmpeg)) in zip(files, zip(measured, reference)) {
            let level = try #require(meter?.integrated), peak = try #require(meter?.truePeak)
            #expect(abs(level - ffmpeg.integrated) < Self.tolerance, "\(file.lastPathComponent): \(level) vs ffmpeg \(ffmpeg.integrated)")
            #expect(abs(peak - ffmpeg.truePeak) < Self.tolerance, "\(file.lastPathComponent): \(peak) dBTP vs ffmpeg \(ffmpeg.truePeak)")
        }
        let loudLevel = try #require(measured[0]?.integrated), quietLevel = try #require(measured[1]?.integrated)
        #expect(abs(loudLevel - quietLevel - 25) < 0.1, "\(loudLevel) - \(quietLevel)")
        // lavfi's sine peaks at 1/8, −3 dB in each stereo channel (−21.1 dBFS): +15 dB puts
        // it at −6.1; a 1 kHz tone in both channels at that peak is −6.1 LUFS too (BS.1770's
        // K-weighting is +0.7 dB at 1 kHz, the sum of two channels +3 dB, a sine's mean
        // square −3 dB below its peak).
        #expect(abs(try #require(measured[0]?.truePeak) - -6.07) < 0.1)
    }

    @Test("5.1 is weighted by position: the LFE left out, the surrounds counted +1.5 dB")
    func surround() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-loudness")
        defer { folder.remove() }
        let file = folder.path("surround.flac")
        // The LFE carries the loudest signal: a meter that counted it would be ~5 dB off.
        try await offPool {
            try MediaFactory.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y",
                                            "-f", "lavfi", "-i", "sine=frequency=1000:duration=10",
                                            "-af", "pan=5.1|FL=c0|FR=0.5*c0|FC=0.7*c0|LFE=4*c0|BL=0.6*c0|BR=2*c0",
                                            "-ar", "48000", file.path])
        }
        let (measured, reference) = try await offPool {
            (try SoundAnalyzer.analyze(file).loudness, try LoudnessProbe.measure(file))
        }
        let level = try #require(measured?.integrated)
        #expect(abs(level - reference.integrated) < Self.tolerance, "\(level) vs ffmpeg \(reference.integrated)")
        let peak = try #require(measured?.truePeak)
        #expect(abs(peak - reference.truePeak) < Self.tolerance, "\(peak) dBTP vs ffmpeg \(reference.truePeak)")
    }

    @Test("a silent file has its features but no loudness and no peak")
    func silence() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-loudness")
        defer { folder.remove() }
        let file = folder.path("silence.flac")
        try await offPool {
            try MediaFactory.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi",
                                            "-i", "anullsrc=channel_layout=stereo:sample_rate=44100", "-t", "5", file.path])
        }
        let (analysis, reference) = try await offPool { (try SoundAnalyzer.analyze(file), try LoudnessProbe.measure(file)) }
        #expect(reference.integrated <= -70 && reference.truePeak == -.infinity)
        #expect(analysis.features.count == SoundFeature.count)
        #expect(analysis.loudness == Loudness(integrated: nil, truePeak: nil))
    }

    @Test("a long file: the whole of it measured, the excerpt's features as when it was sought to")
    func wholeFileOneDecode() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-loudness")
        defer { folder.remove() }
        let file = folder.path("long.flac")
        // 20 s of quiet noise, 120 s of a tone, 20 s of loud noise: the excerpt hears the tone
        // only; the loudness is the whole file's, which the loud end dominates, so a meter
        // that stopped with the excerpt would measure several LU less. Pink noise:
        // white noise's intersample peaks near Nyquist are where libebur128's 4× and
        // FFmpeg's 192 kHz oversampling part (0.4 dB here), which is not what is tested.
        try await offPool {
            try MediaFactory.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y",
                                            "-f", "lavfi", "-i", "anoisesrc=color=pink:amplitude=0.05:duration=20",
                                            "-f", "lavfi", "-i", "sine=frequency=440:duration=120",
                                            "-f", "lavfi", "-i", "anoisesrc=color=pink:amplitude=0.9:duration=20",
                                            "-filter_complex", "[0][1][2]concat=n=3:v=0:a=1", "-ac", "1", "-ar", "22050",
                                            file.path])
        }
        let (measured, sought, reference) = try await offPool {
            (try SoundAnalyzer.analyze(file), try SoundAnalyzer.analyze(file, loudness: false), try LoudnessProbe.measure(file))
        }
        #expect(sought.loudness == nil)
        #expect(measured.seconds == sought.seconds)
        for (index, (one, other)) in zip(measured.features, sought.features).enumerated() {
            #expect(abs(one - other) <= 1e-3 * max(1, abs(other)), "feature \(index): \(one) vs \(other)")
        }
        let level = try #require(measured.loudness?.integrated)
        #expect(abs(level - reference.integrated) < Self.tolerance, "\(level) vs ffmpeg \(reference.integrated)")
        let peak = try #require(measured.loudness?.truePeak)
        #expect(abs(peak - reference.truePeak) < Self.tolerance, "\(peak) dBTP vs ffmpeg \(reference.truePeak)")
    }
}
