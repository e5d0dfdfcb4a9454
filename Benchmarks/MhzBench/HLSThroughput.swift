import BenchKit
import Foundation
import TestSupport

/// HLS download throughput of `mhz download` beside `ffmpeg -i URL -c copy` (and yt-dlp's
/// native HLS downloader when it is installed) from the same local server, which waits
/// 20 ms before each answer: one AAC stream of `segments` four-second segments. mhz fetches
/// `segment_concurrency` (4) segments at once; ffmpeg one after the other. Also the CPU
/// seconds each spends per MB.
struct HLSThroughput {
    /// Median seconds and CPU seconds per run.
    var mhz: (seconds: Double, cpu: Double)
    var ffmpeg: (seconds: Double, cpu: Double)
    var ytdlp: (seconds: Double, cpu: Double)?
    /// Bytes of the stream's segments.
    var bytes: Int

    /// Makes `folder/index.m3u8` and its segments with ffmpeg (once; kept).
    static func prepare(_ folder: URL, ffmpeg: String, segments: Int) throws {
        let playlist = folder.appendingPathComponent("index.m3u8")
        if let text = try? String(contentsOf: playlist, encoding: .utf8),
           text.components(separatedBy: "#EXTINF").count - 1 == segments { return }
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let seconds = segments * 4 - 1
        let made = try MeasuredRun.run(ffmpeg, [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=\(seconds)",
            "-c:a", "aac", "-b:a", "192k", "-ac", "2", "-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod",
            "-hls_segment_filename", folder.appendingPathComponent("seg%03d.ts").path, playlist.path,
        ], environment: ProcessInfo.processInfo.environment)
        guard made.status == 0 else { throw BenchError.tool("ffmpeg could not make the HLS stream") }
    }

    /// Alternating runs of each tool into a fresh folder, `runs` times.
    static func measure(mhz install: MhzInstall, ffmpeg: String, ytdlp: String?, server: FaultyMediaServer,
                        work: URL, runs: Int) throws -> HLSThroughput {
        let url = server.url("index.m3u8")
        let target = work.appendingPathComponent("hls-run", isDirectory: true)
        var mhzRuns: [MeasuredRun] = [], ffmpegRuns: [MeasuredRun] = [], ytdlpRuns: [MeasuredRun] = []
        func fresh() throws {
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        }
        for _ in 0..<runs {
            try fresh()
            let mhz = try MeasuredRun.run(install.binary, ["download", url, "--data-dir", target.appendingPathComponent("data").path],
                                          environment: install.environment)
            guard mhz.status == 0 else { throw BenchError.tool("mhz download exited \(mhz.status)") }
            mhzRuns.append(mhz)
            try fresh()
            let copied = try MeasuredRun.run(ffmpeg, ["-nostdin", "-v", "error", "-i", url, "-c", "copy", "-y",
                                                      target.appendingPathComponent("out.ts").path],
                                             environment: install.environment)
            guard copied.status == 0 else { throw BenchError.tool("ffmpeg exited \(copied.status)") }
            ffmpegRuns.append(copied)
            if let ytdlp {
                try fresh()
                let fetched = try MeasuredRun.run(ytdlp, ["-q", "--no-warnings", "--downloader", "m3u8:native", "--no-part",
                                                          "-o", target.appendingPathComponent("out.%(ext)s").path, url],
                                                  environment: install.environment)
                if fetched.status == 0 { ytdlpRuns.append(fetched) }
            }
        }
        try? FileManager.default.removeItem(at: target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: server.root.path)) ?? []
        let bytes = names.filter { $0.hasSuffix(".ts") }.reduce(0) { sum, name in
            sum + ((try? FileManager.default.attributesOfItem(atPath: server.root.appendingPathComponent(name).path)[.size] as? Int) ?? 0)
        }
        func median(_ runs: [MeasuredRun]) -> (Double, Double) { (Stats(runs.map(\.seconds)).median, Stats(runs.map(\.cpuSeconds)).median) }
        return HLSThroughput(mhz: median(mhzRuns), ffmpeg: median(ffmpegRuns),
                             ytdlp: ytdlpRuns.isEmpty ? nil : median(ytdlpRuns), bytes: bytes)
    }

    /// MB/s.
    func rate(_ seconds: Double) -> Double { Double(bytes) / 1_000_000 / seconds }
    /// CPU milliseconds per MB.
    func cpuPerMB(_ cpu: Double) -> Double { cpu * 1000 / (Double(bytes) / 1_000_000) }
}
