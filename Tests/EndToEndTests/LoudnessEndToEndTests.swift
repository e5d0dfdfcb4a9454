import Foundation
import Testing
import TestSupport

/// Songs mastered 25 dB apart, played by the built mhz from a built `mhz serve`, recorded
/// through mpv's pcm output (`--audio-output pcm`: the whole session in `audiodump.wav`)
/// and measured by FFmpeg: levelled, every stretch of every song is as loud as the others;
/// with `[radio] loudness = false`, the recording keeps the 25 dB the files have.
@Suite("Loudness end to end")
struct LoudnessEndToEndTests {
    /// Four 1 kHz tones, the second and fourth mastered 25 dB under the others (one frequency,
    /// so every stretch's level compares with K-weighting out of the picture).
    private static func music(_ folder: URL) throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Tones"), withIntermediateDirectories: true)
        for (index, gain) in [0.0, -25, 0, -25].enumerated() {
            try MediaFactory.tone(at: folder.appendingPathComponent("Tones/\(index + 1) Tone.flac"), seconds: 6,
                                  frequency: 1000, tags: ["title": "Tone \(index + 1)", "artist": "Level \(Int(gain))"],
                                  gainDB: gain)
        }
    }

    /// The RMS level (dBFS) of each half second of `file`'s first channel, by ffmpeg's
    /// `astats` (a window of digital silence has none).
    private static func windows(_ file: URL) throws -> [Double] {
        let result = try Tool.run("ffmpeg", ["-nostdin", "-hide_banner", "-i", file.path, "-af",
                                             "asetnsamples=n=22050:p=0,astats=metadata=1:reset=1,"
                                                 + "ametadata=print:key=lavfi.astats.1.RMS_level",
                                             "-f", "null", "-"])
        guard result.status == 0 else { throw TestSupportError.toolFailed("ffmpeg astats: \(result.errors)") }
        return result.errors.split(separator: "\n").compactMap { line in
            guard let value = line.split(separator: "=").last, line.contains("RMS_level=") else { return nil }
            return Double(value)
        }
    }

    /// Plays the station's songs into a recording, `loudness` as `[radio] loudness` says,
    /// until mhz has begun `songs` songs; the recording's half-second levels.
    private static func record(from base: URL, loudness: Bool, songs: Int, in folder: TemporaryDirectory) async throws -> [Double] {
        let name = loudness ? "levelled" : "as-mastered"
        let home = folder.path(name)
        try FileManager.default.createDirectory(at: home.appendingPathComponent("config/mhz"), withIntermediateDirectories: true)
        try Data("[radio]\nloudness = \(loudness)\n".utf8).write(to: home.appendingPathComponent("config/mhz/config.toml"))
        let mhz = try BuiltMhz(["--server", base.absoluteString, "--headless", "--audio-output", "pcm",
                                "--data-dir", home.appendingPathComponent("data").path],
                               home: home, prelude: ["cd '\(home.path)'"])
        try await mhz.whileRunning { mhz in
            var seen = 0
            for _ in 0..<songs { seen = try await mhz.waitFor("playing", after: seen).index + 1 }
            mhz.send("quit")
            #expect(try await mhz.exit() == 0, "\(mhz.stderr)")
        }
        let recording = home.appendingPathComponent("audiodump.wav")
        return try await offPool { try Self.windows(recording) }
    }

    @Test("played levelled, every half second of the recording is within 1 dB of the others; as mastered, 25 dB apart")
    func levelled() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-loudness-e2e")
        defer { folder.remove() }
        let music = folder.path("music")
        try await offPool { try Self.music(music) }
        let station = try BuiltMhz(["serve", "--data-dir", folder.path("station").path, "--port", "0", "--library", music.path],
                                   home: folder.url, environment: ["MHZ_LOG_LEVEL": "info"])
        try await station.whileRunning { station in
            let base = try await station.servedURL()
            // Songs are levelled once the station has heard them.
            try await waitUntil("the station's sound analysis", within: .seconds(60)) {
                station.stderr.contains("sound analysis: measured 4 tracks")
            }
            let levelled = try await Self.record(from: base, loudness: true, songs: 6, in: folder)
            // Every stretch but the recording's last, which may be a fraction of a window.
            let body = levelled.dropLast()
            #expect(body.count >= 20, "\(levelled)")
            let spread = (body.max() ?? 0) - (body.min() ?? 0)
            #expect(spread < 1, "levelled: \(body)")
            let mastered = try await Self.record(from: base, loudness: false, songs: 6, in: folder).dropLast()
            let apart = (mastered.max() ?? 0) - (mastered.min() ?? 0)
            #expect(apart > 24 && apart < 26, "as mastered: \(mastered)")
            station.terminate()
            #expect(try await station.exit() == 0)
        }
    }
}
