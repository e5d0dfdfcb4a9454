import Foundation
import MusicLibrary
import Testing
import TestSupport
@testable import SoundFeatures

/// One file's sound measured from its decoded audio: what the numbers say of known signals.
@Suite("Sound analysis")
struct SoundAnalyzerTests {
    private func feature(_ analysis: SoundAnalysis, _ feature: SoundFeature) -> Float {
        analysis.features[feature.rawValue]
    }

    @Test("a tone measures at its level and pitch, noise as noise; tones an octave apart are closer than tone and noise")
    func tonesAndNoise() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-sound")
        defer { folder.remove() }
        let quietLow = folder.path("quiet-110.flac"), low = folder.path("220.flac")
        let high = folder.path("440.flac"), noise = folder.path("noise.flac")
        try await offPool {
            try SoundSamples.tone(quietLow, frequency: 110, volume: 0.1)
            try SoundSamples.tone(low, frequency: 220)
            try SoundSamples.tone(high, frequency: 440)
            try SoundSamples.noise(noise)
        }
        let measured = try await offPool { try [quietLow, low, high, noise].map { try SoundAnalyzer.analyze($0) } }
        let (q, l, h, n) = (measured[0], measured[1], measured[2], measured[3])

        // lavfi's sine has amplitude 1/8: a mean square of 1/128, −21.1 dBFS; −41.1 at a tenth.
        #expect(abs(feature(l, .loudness) - -21.07) < 0.3)
        #expect(abs(feature(q, .loudness) - -41.07) < 0.3)
        // White noise of amplitude 0.5 has a mean square of 1/12 (−10.8 dBFS), half of it above
        // 11 kHz, which the analysis at 22 050 Hz leaves out: −13.8.
        #expect(abs(feature(n, .loudness) - -13.8) < 1.0)
        // A pure tone's energy sits at its frequency; white noise's is spread to 11 kHz.
        #expect(abs(feature(l, .centroid) - 220) < 25)
        #expect(abs(feature(h, .centroid) - 440) < 25)
        #expect(feature(n, .centroid) > 4000)
        #expect(feature(l, .flatness) < 0.05 && feature(n, .flatness) > 0.4)
        // 440 Hz is A; 220 Hz too: the strongest pitch class holds most of the tone's energy.
        #expect(feature(h, .chromaClarity) > 0.8 && feature(n, .chromaClarity) < 0.3)
        #expect(feature(h, .zeroCrossings) > feature(l, .zeroCrossings) && feature(n, .zeroCrossings) > feature(h, .zeroCrossings))
        #expect(q.seconds > 3.9 && q.seconds <= 4.0)

        let table = SoundTable(trackCount: 4, weights: SoundFeature.weights) { measured[$0].features }
        let octave = try #require(table.distance(1, 2))
        let toneToNoise = try #require(table.distance(1, 3))
        let quietToNoise = try #require(table.distance(0, 3))
        #expect(octave < toneToNoise)
        #expect(quietToNoise > octave * 1.5)
        #expect(quietToNoise >= (try #require(table.distance(0, 1))))
        #expect(table.distance(2, 2) == 0)
    }

    @Test("a file analysed twice gives identical numbers")
    func deterministic() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-sound")
        defer { folder.remove() }
        let file = folder.path("beats.ogg")
        try await offPool {
            try SoundSamples.make(file, source: "aevalsrc='0.8*sin(2*PI*220*t)*exp(-12*mod(t\\,0.5))'", seconds: 6)
        }
        let (first, second) = try await offPool { (try SoundAnalyzer.analyze(file), try SoundAnalyzer.analyze(file)) }
        #expect(first == second)
        #expect(first.features.count == SoundFeature.count)
        // Two strokes a second: the onset detector and the beat tracker find them.
        #expect(feature(first, .onsetRate) > 1.0 && feature(first, .onsetRate) < 3.5)
        // A beat tracker may lock to half the tempo over six seconds: 120 or 60, nothing else.
        #expect(abs(feature(first, .tempo) - 120) < 15 || abs(feature(first, .tempo) - 60) < 8,
                "tempo \(feature(first, .tempo))")
    }

    @Test("the same tone in mp3, ogg, opus and m4a measures alike")
    func formats() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-sound")
        defer { folder.remove() }
        let files = ["flac", "mp3", "ogg", "opus", "m4a"].map { folder.path("tone.\($0)") }
        try await offPool { for file in files { try SoundSamples.tone(file, frequency: 330) } }
        let measured = try await offPool { try files.map { try SoundAnalyzer.analyze($0) } }
        for (file, analysis) in zip(files, measured) {
            #expect(abs(feature(analysis, .centroid) - 330) < 25, "\(file.lastPathComponent)")
            #expect(abs(feature(analysis, .loudness) - feature(measured[0], .loudness)) < 1, "\(file.lastPathComponent)")
        }
    }

    @Test("a file longer than the excerpt is measured over its middle")
    func excerpt() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-sound")
        defer { folder.remove() }
        let file = folder.path("long.flac")
        // 20 s of noise, 120 s of a tone, 20 s of noise: the middle 120 s are the tone.
        try await offPool {
            try MediaFactory.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y",
                                            "-f", "lavfi", "-i", "anoisesrc=color=white:amplitude=0.5:duration=20",
                                            "-f", "lavfi", "-i", "sine=frequency=440:duration=120",
                                            "-f", "lavfi", "-i", "anoisesrc=color=white:amplitude=0.5:duration=20",
                                            "-filter_complex", "[0][1][2]concat=n=3:v=0:a=1", "-ac", "1", "-ar", "22050",
                                            file.path])
        }
        let analysis = try await offPool { try SoundAnalyzer.analyze(file) }
        #expect(abs(analysis.seconds - SoundAnalyzer.excerptSeconds) < 0.05)
        #expect(feature(analysis, .flatness) < 0.05, "noise from the ends was measured")
        #expect(abs(feature(analysis, .centroid) - 440) < 25)
    }

    @Test("a file that cannot be decoded, or holds no sound, is unreadable")
    func unreadable() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-sound")
        defer { folder.remove() }
        let garbage = folder.path("garbage.mp3"), damaged = folder.path("damaged.wav"), missing = folder.path("missing.flac")
        try Data("not music at all".utf8).write(to: garbage)
        try SoundSamples.undecodable(damaged)
        for file in [garbage, damaged, missing] {
            do throws(SoundAnalysisError) {
                _ = try SoundAnalyzer.analyze(file)
                Issue.record("\(file.lastPathComponent) was measured")
            } catch {
                if case .unreadable = error {} else { Issue.record("\(file.lastPathComponent): \(error)") }
            }
        }
        #expect(throws: SoundAnalysisError.unreadable(reason: "no decoder for none")) { try SoundAnalyzer.analyze(damaged) }
    }

    @Test("the analysis gives up between chunks when told to stop")
    func stops() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-sound")
        defer { folder.remove() }
        let file = folder.path("tone.flac")
        try await offPool { try SoundSamples.tone(file, frequency: 220, seconds: 3) }
        var asked = 0
        #expect(throws: SoundAnalysisError.stopped) {
            try SoundAnalyzer.analyze(file) {
                asked += 1
                return asked == 2
            }
        }
        #expect(asked == 2)
    }
}
