import BenchKit
import Foundation
import TestSupport

/// The part of `mhz-bench live` that measures a channel that sounds like a radio: songs
/// mastered up to 25 dB apart, each brought to −18 LUFS and overlapped with the next for
/// 3 s on an equal-power curve, beside Liquidsoap doing the same work — `crossfade()` over
/// `amplify()` by each file's ReplayGain tag, which the benchmark writes from FFmpeg's
/// `ebur128` measure (mhz's station measures for itself, once, in its sound analysis, which
/// is not counted here: the station is measured once it has finished). Both also without
/// the fades and the gain, so the rows say what levelling and crossfading cost each.
enum LiveSegue {
    /// Songs in the library.
    static let songs = 12
    /// Seconds each song lasts: several crossfades in a measured phase, with a long middle.
    static let songSeconds = 20
    /// How far below full level each song is mastered (dB), in library order.
    static let levels: [Double] = [0, -25, -8, -17, -3, -21, -12, -5, -23, -10, -15, -1]

    /// The library of ``songs`` MP3s (one tone frequency each, one genre: the station's
    /// channel of it is the one broadcast), tagged with the `REPLAYGAIN_TRACK_GAIN` that
    /// brings each to −18 LUFS; kept between runs.
    static func ensureLibrary(_ folder: URL) throws {
        let marker = folder.appendingPathComponent(".complete")
        if FileManager.default.fileExists(atPath: marker.path) { return }
        try? FileManager.default.removeItem(at: folder)
        let album = folder.appendingPathComponent("Levels/Mastered Apart", isDirectory: true)
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        let scratch = folder.appendingPathComponent(".untagged.mp3")
        for index in 0..<songs {
            let level = levels[index % levels.count]
            try ffmpeg(["-f", "lavfi", "-i", "sine=frequency=\(220 + 55 * index):duration=\(songSeconds)", "-ac", "2",
                        "-ar", "44100", "-af", "volume=\(level)dB", "-c:a", "libmp3lame", "-b:a", "192k", scratch.path])
            let measured = try LoudnessProbe.measure(scratch)
            let gain = String(format: "%.2f dB", -18 - measured.integrated)
            let title = String(format: "Song %02d at %.0f dB", index + 1, level)
            try ffmpeg(["-i", scratch.path, "-c", "copy", "-metadata", "title=\(title)", "-metadata", "artist=Levels",
                        "-metadata", "album=Mastered Apart", "-metadata", "genre=Levels", "-metadata", "date=1990",
                        "-metadata", "REPLAYGAIN_TRACK_GAIN=\(gain)",
                        album.appendingPathComponent(String(format: "%02d %@.mp3", index + 1, title)).path])
        }
        try? FileManager.default.removeItem(at: scratch)
        _ = FileManager.default.createFile(atPath: marker.path, contents: nil)
    }

    /// Measures both stations both ways for `seconds` each and adds the rows to `table`.
    static func measure(_ options: LiveCommand.Options, liquidsoap: String?, into table: inout ResultTable,
                        progress: (String) -> Void) throws {
        let music = options.work.appendingPathComponent("library-levels", isDirectory: true)
        try ensureLibrary(music)
        progress("live: levelled and crossfaded over \(music.path)")
        let smooth = try mhzChannel(options, music: music, config: "[live]\ncrossfade = \"3s\"\n[station]\nloudness = \"track\"\n",
                                    name: "segue")
        let plain = try mhzChannel(options, music: music, config: "[live]\ncrossfade = \"0s\"\n[station]\nloudness = \"off\"\n",
                                   name: "plain")
        var lq: (smooth: Double, plain: Double)?
        if let liquidsoap {
            progress("live: liquidsoap with crossfade() and amplify() by ReplayGain, then without")
            let faded = try LiveCommand.liquidsoapRun(
                liquidsoap, music: music, work: options.work, seconds: options.seconds,
                processing: "crossfade(duration=3.0, fade_in=3.0, fade_out=3.0, amplify(1.0, override=\"replaygain_track_gain\", s))")
            let cut = try LiveCommand.liquidsoapRun(liquidsoap, music: music, work: options.work, seconds: options.seconds)
            lq = (faded.cpu, cut.cpu)
        }
        let version = LiveCommand.liquidsoapVersion(liquidsoap)
        table.add("CPU of one channel levelled to −18 LUFS with 3 s crossfades (songs mastered 25 dB apart), share of a core",
                  mhz: LiveCommand.percent(smooth),
                  reference: lq.map { "\(LiveCommand.percent($0.smooth)) liquidsoap crossfade()+amplify(ReplayGain) \(version)" }
                      ?? "liquidsoap not installed",
                  ratio: lq.map { String(format: "%.2f×", smooth / $0.smooth) } ?? "—",
                  target: lq.map { smooth <= $0.smooth ? "≤ 1×: met" : "≤ 1×: **not met**" } ?? "")
        table.add("the same library, hard cuts and no levelling",
                  mhz: LiveCommand.percent(plain),
                  reference: lq.map { "\(LiveCommand.percent($0.plain)) liquidsoap" } ?? "—",
                  ratio: lq.map { String(format: "%.2f×", plain / $0.plain) } ?? "—")
    }

    /// The CPU share of a channel of a fresh `mhz serve` over `music` with `config`,
    /// measured once its sound analysis has finished (so the songs are levelled) and the
    /// channel is on the air.
    private static func mhzChannel(_ options: LiveCommand.Options, music: URL, config: String, name: String) throws -> Double {
        let station = try BenchStation(mhz: options.mhz, library: music.path,
                                       data: options.work.appendingPathComponent("live-\(name)", isDirectory: true),
                                       seed: 39, users: [], config: config)
        defer { station.stop() }
        try station.waitForSoundAnalysis()
        let channel = try LiveCommand.publicChannel(port: station.port)
        let client = LoadClient(port: station.port)
        let idle = LiveCommand.cpuOver(pid: station.pid, seconds: 3)
        _ = try client.get("/live/\(channel).m3u8")
        let busy = LiveCommand.cpuOver(pid: station.pid, seconds: options.seconds) {
            _ = try? client.get("/live/\(channel)/128.m3u8")
        }
        return busy - idle
    }

    private static func ffmpeg(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-nostdin", "-loglevel", "error", "-y"] + arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError.tool("ffmpeg \(arguments.joined(separator: " ")) failed") }
    }
}
