import BenchKit
import Foundation
import TestSupport

/// Download throughput of `mhz download` beside `curl -o` from the same local server, which
/// waits `requestDelay` before each answer (a distant server's round trip): one large file,
/// and a batch of songs (which mhz fetches `max_concurrent` at a time, curl one after the
/// other). Also mhz's peak memory while downloading the large file.
struct DownloadThroughput {
    /// Seconds, median of the runs, for mhz and for curl.
    var mhzSeconds: Double
    var curlSeconds: Double
    /// Peak RSS of the mhz runs, MiB (the largest).
    var mhzPeakRSSMiB: Double
    /// Bytes per run.
    var bytes: Int

    /// The wait before each answer.
    static let requestDelay = Duration.milliseconds(20)

    /// Files under `folder`: one of `largeMiB` and `songs` of `songMiB`, random bytes (made
    /// once and kept).
    static func prepare(_ folder: URL, largeMiB: Int, songs: Int, songMiB: Int) throws -> (large: String, songs: [String]) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func ensure(_ name: String, mib: Int) throws {
            let url = folder.appendingPathComponent(name)
            if let size = try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int, size == mib << 20 { return }
            // A file that could not be made is reported by the FileHandle below, which throws.
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<mib {
                var block = [UInt8](repeating: 0, count: 1 << 20)
                for i in stride(from: 0, to: block.count, by: 8) {
                    withUnsafeBytes(of: generator.next() as UInt64) { bytes in
                        for j in 0..<8 { block[i + j] = bytes[j] }
                    }
                }
                try handle.write(contentsOf: block)
            }
        }
        try ensure("large.mp3", mib: largeMiB)
        var names: [String] = []
        for n in 1...songs {
            let name = "song-\(n).mp3"
            try ensure(name, mib: songMiB)
            names.append(name)
        }
        return ("large.mp3", names)
    }

    /// `mhz download URL…` (a fresh data directory each run) and `curl -o` for each URL, in
    /// one process, alternating, `runs` times each.
    static func measure(mhz install: MhzInstall, curl: String, server: FaultyMediaServer, names: [String],
                        work: URL, runs: Int) throws -> DownloadThroughput {
        let urls = names.map { server.url($0) }
        var mhzTimes: [Double] = [], curlTimes: [Double] = []
        var peak = 0.0
        let target = work.appendingPathComponent("download-run", isDirectory: true)
        for _ in 0..<runs {
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            let mhz = try MeasuredRun.run(install.binary, ["download"] + urls + ["--data-dir", target.appendingPathComponent("data").path],
                                          environment: install.environment)
            guard mhz.status == 0 else { throw BenchError.tool("mhz download exited \(mhz.status)") }
            mhzTimes.append(mhz.seconds)
            peak = max(peak, mhz.peakRSSMiB)
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            var arguments = ["-s", "-f"]
            for (index, url) in urls.enumerated() { arguments += ["-o", target.appendingPathComponent("\(index)").path, url] }
            let curled = try MeasuredRun.run(curl, arguments, environment: install.environment)
            guard curled.status == 0 else { throw BenchError.tool("curl exited \(curled.status)") }
            curlTimes.append(curled.seconds)
        }
        try? FileManager.default.removeItem(at: target)
        let size = try names.reduce(0) { sum, name in
            sum + ((try FileManager.default.attributesOfItem(atPath: server.root.appendingPathComponent(name).path)[.size] as? Int) ?? 0)
        }
        return DownloadThroughput(mhzSeconds: Stats(mhzTimes).median, curlSeconds: Stats(curlTimes).median,
                                  mhzPeakRSSMiB: peak, bytes: size)
    }

    /// MB/s of mhz.
    var mhzRate: Double { Double(bytes) / 1_000_000 / mhzSeconds }
    /// MB/s of curl.
    var curlRate: Double { Double(bytes) / 1_000_000 / curlSeconds }
}
