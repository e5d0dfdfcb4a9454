import BenchKit
import Foundation
import Transcoder

/// Transcoding speed of the station's `AudioTranscoder` (in-process, the whole file to MP3 at
/// 128 kbit/s) beside `ffmpeg -i FILE -b:a 128k OUT.mp3` on the same file, in × real time
/// (seconds of audio per second of wall time), and the CPU seconds of each; and how soon the
/// first MP3 bytes of a song not yet cached leave the station's media route.
struct TranscodeSpeed {
    /// Median wall and CPU seconds of one transcode.
    var mhz: (seconds: Double, cpu: Double)
    var ffmpeg: (seconds: Double, cpu: Double)
    /// Seconds of audio in the file.
    var audioSeconds: Double

    /// Makes a FLAC file of `seconds` of 44.1 kHz stereo (kept between runs).
    static func prepare(_ file: URL, ffmpeg: String, seconds: Int) throws {
        if FileManager.default.fileExists(atPath: file.path) { return }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let made = try MeasuredRun.run(ffmpeg, [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=\(seconds)",
            "-f", "lavfi", "-i", "anoisesrc=color=pink:sample_rate=44100:duration=\(seconds):amplitude=0.1",
            "-filter_complex", "amix=inputs=2", "-ac", "2", "-c:a", "flac", file.path,
        ], environment: ProcessInfo.processInfo.environment)
        guard made.status == 0 else { throw BenchError.tool("ffmpeg could not make the transcoding input") }
    }

    /// Alternating runs of each, `runs` times.
    static func measure(input: URL, ffmpeg: String, seconds: Int, work: URL, runs: Int) throws -> TranscodeSpeed {
        let output = work.appendingPathComponent("transcode-out.mp3")
        var mhz: [(Double, Double)] = [], reference: [MeasuredRun] = []
        for _ in 0..<runs {
            let cpuBefore = Self.processCPU()
            let start = ContinuousClock.now
            try AudioTranscoder.transcode(input: input, to: output, kbps: 128)
            let elapsed = ContinuousClock.now - start
            mhz.append((Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                        Self.processCPU() - cpuBefore))
            try? FileManager.default.removeItem(at: output)
            let run = try MeasuredRun.run(ffmpeg, ["-nostdin", "-v", "error", "-y", "-i", input.path, "-b:a", "128k", output.path],
                                          environment: ProcessInfo.processInfo.environment)
            guard run.status == 0 else { throw BenchError.tool("ffmpeg exited \(run.status)") }
            reference.append(run)
            try? FileManager.default.removeItem(at: output)
        }
        return TranscodeSpeed(mhz: (Stats(mhz.map(\.0)).median, Stats(mhz.map(\.1)).median),
                              ffmpeg: (Stats(reference.map(\.seconds)).median, Stats(reference.map(\.cpuSeconds)).median),
                              audioSeconds: Double(seconds))
    }

    /// × real time for a wall time.
    func speed(_ seconds: Double) -> Double { audioSeconds / seconds }

    /// User plus system CPU seconds of this process so far.
    private static func processCPU() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
