import Foundation
@testable import Playback
import Testing
import TestSupport

/// Songs' gains against real libmpv writing what it plays to a WAV file (`ao=pcm`, which
/// writes as fast as it decodes), measured with FFmpeg's `ebur128` (`LoudnessProbe`):
/// tones mastered 25 dB apart, each given the gain that brings it to −18 LUFS.
@Suite("Loudness output", .serialized)
struct LoudnessOutputTests {
    /// The level the gains aim at.
    static let target = -18.0
    /// Each tone's length; the hand-over is at this point of the output.
    static let seconds = 4.0

    /// The tones: "loud" +10 dB over MediaFactory's (−11.8 LUFS), "quiet" −15 dB (−36.8 LUFS),
    /// FLAC so the output's samples line up with the sources' exactly.
    struct Songs {
        let fixture: PlaybackFixture
        let out: URL
        /// The gain that brings each to the target, from ffmpeg's measurement of the source.
        let loudGain: Double
        let quietGain: Double

        /// No recovery: with an untimed output only trouble in ffmpeg's log makes a break, and
        /// that log is process-wide (bound to the first mpv instance alive, see
        /// `PlayerControllerRecoveryTests`), so another suite's cut could reach this player.
        init() async throws {
            sink = try TemporaryDirectory(prefix: "mhz-loudness-out")
            out = sink.path("out.wav")
            fixture = try await PlaybackFixture(
                media: [:], options: PlayerOptions(extraOptions: [("ao", "pcm"), ("ao-pcm-file", out.path)], recovery: .disabled))
            let folder = fixture.folder
            try await offPool {
                try MediaFactory.tone(at: folder.path("loud.flac"), seconds: LoudnessOutputTests.seconds, gainDB: 10)
                try MediaFactory.tone(at: folder.path("quiet.flac"), seconds: LoudnessOutputTests.seconds, gainDB: -15)
            }
            loudGain = LoudnessOutputTests.target - (try LoudnessProbe.measure(folder.path("loud.flac")).integrated)
            quietGain = LoudnessOutputTests.target - (try LoudnessProbe.measure(folder.path("quiet.flac")).integrated)
        }

        /// The folder of the output, removed with the songs.
        private let sink: TemporaryDirectory

        /// Plays loud then quiet, gapless, with the given gains, and returns the output once
        /// mpv has closed it.
        func playBoth(loud: Double?, quiet: Double?) async throws -> URL {
            let a = try fixture.player.load(fixture.url("loud.flac"), gain: loud)
            let b = try fixture.player.queueNext(fixture.url("quiet.flac"), gain: quiet)
            #expect(try await fixture.events.finished(a) == .eof)
            #expect(try await fixture.events.finished(b) == .eof)
            #expect(!fixture.events.all.contains { if case .recovering = $0 { true } else { false } },
                    "an end at the output's pace is no break: \(fixture.events.all)")
            return closed()
        }

        /// Shuts the player down, which makes `ao=pcm` write the WAV header's sizes.
        func closed() -> URL {
            fixture.player.shutdown()
            return out
        }
    }

    /// The integrated loudness of `seconds` of `file` from `start`, cut out by ffmpeg and
    /// measured by `LoudnessProbe`.
    static func loudness(of file: URL, from start: Double, seconds: Double) throws -> Double {
        let window = file.deletingLastPathComponent()
            .appendingPathComponent("window-\(start)-\(seconds)-\(UUID().uuidString).wav")
        try MediaFactory.run("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-ss", "\(start)",
                                        "-t", "\(seconds)", "-i", file.path, window.path])
        defer { try? FileManager.default.removeItem(at: window) }
        return try LoudnessProbe.measure(window).integrated
    }

    /// The output's length in seconds.
    static func duration(of file: URL) throws -> Double {
        let probe = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file.path])
        return Double(probe.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    @Test("two songs 25 dB apart, each with its gain, play within 2 dB of each other, and neither gain reaches the other song")
    func levelledSongsMatch() async throws {
        let songs = try await Songs()
        let out = try await songs.playBoth(loud: songs.loudGain, quiet: songs.quietGain)
        let length = try Self.duration(of: out)
        #expect(abs(length - 2 * Self.seconds) < 0.05, "gapless: the output is both songs, \(length) s")

        let loud = try Self.loudness(of: out, from: 0, seconds: Self.seconds)
        let quiet = try Self.loudness(of: out, from: Self.seconds, seconds: Self.seconds)
        #expect(abs(loud - quiet) <= 2, "loud \(loud) LUFS, quiet \(quiet) LUFS")
        #expect(abs(loud - Self.target) <= 1 && abs(quiet - Self.target) <= 1, "loud \(loud), quiet \(quiet)")
        // The hand-over: the half second on either side of it is at its own song's level. A
        // gain switched even 50 ms early or late would put 25 dB too much or too little there.
        let lastOfLoud = try Self.loudness(of: out, from: Self.seconds - 0.5, seconds: 0.5)
        let firstOfQuiet = try Self.loudness(of: out, from: Self.seconds, seconds: 0.5)
        #expect(abs(lastOfLoud - Self.target) <= 1, "the loud song's last 0.5 s: \(lastOfLoud) LUFS")
        #expect(abs(firstOfQuiet - Self.target) <= 1, "the quiet song's first 0.5 s: \(firstOfQuiet) LUFS")
        print("levelled: loud \(loud), quiet \(quiet), around the hand-over \(lastOfLoud) | \(firstOfQuiet) LUFS")
    }

    @Test("without gains the same songs play 25 dB apart")
    func unlevelledSongsDiffer() async throws {
        let songs = try await Songs()
        let out = try await songs.playBoth(loud: nil, quiet: nil)
        let loud = try Self.loudness(of: out, from: 0, seconds: Self.seconds)
        let quiet = try Self.loudness(of: out, from: Self.seconds, seconds: Self.seconds)
        #expect(abs(loud - quiet - 25) <= 1, "loud \(loud) LUFS, quiet \(quiet) LUFS")
    }

    @Test("the volume applies on top of the gain")
    func volumeOnTop() async throws {
        let songs = try await Songs()
        try songs.fixture.player.setVolume(50)
        let id = try songs.fixture.player.load(songs.fixture.url("loud.flac"), gain: songs.loudGain)
        #expect(try await songs.fixture.events.finished(id) == .eof)
        let level = try LoudnessProbe.measure(songs.closed()).integrated
        // mpv's volume is cubic: 50 % is 20·log10(0.5³) = −18.06 dB.
        let expected = Self.target + 20 * log10(0.125)
        #expect(abs(level - expected) <= 1, "at volume 50: \(level) LUFS, expected \(expected)")
    }

    @Test("a seek keeps the gain")
    func seekKeepsGain() async throws {
        let songs = try await Songs()
        let player = songs.fixture.player, events = songs.fixture.events
        // Paused from its start (ao=pcm plays faster than real time), sought, then played.
        try player.pause()
        let id = try player.load(songs.fixture.url("loud.flac"), gain: songs.loudGain)
        _ = try await events.started(id)
        try player.seek(to: 2)
        // The position mpv reports after the seek (2 s less a sample or so).
        try await events.next("the seek's position") { if case .progress(id, let at) = $0 { at > 1.9 } else { false } }
        // mpv's own writing of `lavfi=[volume=…dB]`: the graph as a length-prefixed value.
        let graph = "volume=\(MPVArgument.number(((songs.loudGain * 10).rounded()) / 10))dB"
        #expect(player.audioFilters == "lavfi=graph=%\(graph.utf8.count)%\(graph)")
        try player.resume()
        #expect(try await events.finished(id) == .eof)
        let out = songs.closed()
        let length = try Self.duration(of: out)
        #expect(length < Self.seconds - 1, "the seek skipped audio: \(length) s written")
        let level = try LoudnessProbe.measure(out).integrated
        #expect(abs(level - Self.target) <= 1, "after the seek: \(level) LUFS")
    }

    @Test("a reload after a cut connection carries the song's gain into mpv")
    func reloadKeepsGain() async throws {
        // At the pace of a device (ao=null), as the recovery tests: a 320 kbit/s mp3 cut after
        // 4 s of its 6, refused once, then served again; the reloaded entry plays through its
        // own filter. (Not over ao=pcm: with an untimed output only ffmpeg's log makes a cut a
        // break, and that log reaches the first mpv instance alive in the test process.)
        let fixture = try await PlaybackFixture(media: ["tone.mp3": 6],
                                                options: PlayerOptions(recovery: PlayerControllerRecoveryTests.quick),
                                                mp3Bitrate: PlayerControllerRecoveryTests.bitrate)
        fixture.faulty.script("/tone.mp3", PlayerControllerRecoveryTests.cutThenRefuseFirstReload())
        let id = try fixture.player.load(fixture.faulty.url("tone.mp3"), gain: -6.2)
        _ = try await fixture.events.started(id)
        #expect(fixture.player.audioFilters == "lavfi=graph=%13%volume=-6.2dB")
        let recovered = try await fixture.events.next("recovered", timeout: .seconds(20)) {
            if case .recovered(id, _) = $0 { true } else { false }
        }
        guard case .recovered(_, let resumedAt) = recovered else { return }
        var position = try await fixture.events.progress(id)
        while position < resumedAt + 0.5 { position = try await fixture.events.progress(id) }
        #expect(fixture.player.audioFilters == "lavfi=graph=%13%volume=-6.2dB", "the reloaded entry's filters")
        #expect(try await fixture.events.finished(id, timeout: .seconds(15)) == .eof)
    }
}
