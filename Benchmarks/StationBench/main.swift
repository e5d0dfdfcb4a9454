// StationBench: scan rate and playlist latency of the station, each beside a reference
// (the measurements live in BenchKit's StationBenchmark, shared with mhz-bench).
//
//   script/build-release StationBench
//   .build/release/StationBench [--files 2000] [--requests 4000] [--concurrency 1,16,64] [--work DIR]
//                               [--scans 5] [--hogs N] [--no-sound]
//
// The load runs once the station has measured its library's sound (lists drawn with the
// sound vectors in memory, as a settled station draws them); --no-sound skips that.
// --hogs N runs N busy shell loops beside it for the whole run: the same measurements on a
// machine that something else keeps busy.
import BenchKit
import Foundation

let arguments = CommandLine.arguments
func option(_ name: String, _ fallback: String) -> String {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return fallback }
    return arguments[index + 1]
}

let fileCount = Int(option("--files", "2000")) ?? 2000
let requestsPerLevel = Int(option("--requests", "4000")) ?? 4000
let levels = option("--concurrency", "1,16,64").split(separator: ",").compactMap { Int($0) }
let work = URL(fileURLWithPath: option("--work", NSTemporaryDirectory() + "mhz-station-bench"), isDirectory: true)
let music = work.appendingPathComponent("library", isDirectory: true)

func format(_ value: Double, _ digits: Int = 0) -> String { String(format: "%.\(digits)f", value) }

let hogCount = Int(option("--hogs", "0")) ?? 0
print("StationBench: \(fileCount) files, \(requestsPerLevel) requests per level, concurrency \(levels), \(hogCount) busy loops beside it")
try BenchLibrary.ensure(music, count: fileCount)
let hogs: [Process] = try (0..<hogCount).map { _ in
    let hog = Process()
    hog.executableURL = URL(fileURLWithPath: "/bin/sh")
    hog.arguments = ["-c", "while :; do :; done"]
    try hog.run()
    return hog
}
defer { for hog in hogs { hog.terminate(); hog.waitUntilExit() } }
let (scan, loads) = try await StationBenchmark(music: music, work: work).run(
    levels: levels, requestsPerLevel: requestsPerLevel, rescans: Int(option("--rescans", "9")) ?? 9,
    firstScans: Int(option("--scans", "5")) ?? 5, soundMeasured: !CommandLine.arguments.contains("--no-sound"))

print("scan  first  \(format(scan.firstRate)) files/s median (\(scan.firstRead) read; TagLib-only reference \(format(scan.referenceRate)) files/s, ratio \(format(scan.firstRate / scan.referenceRate, 2)))")
print("scan  rescan \(format(scan.rescanRate)) files/s (\(scan.rescanRead) read; walk+stat reference \(format(scan.walkRate)) files/s, ratio \(format(scan.rescanRate / scan.walkRate, 2)); \(format(scan.rescanRate / scan.firstRate, 1))x the first scan)")
for load in loads {
    let p = load.playlist, r = load.reference
    print("load  c=\(load.clients) playlist p50 \(format(p.median, 2)) ms p99 \(format(p.p99, 2)) ms \(format(load.playlistRate)) req/s"
        + " | channels reference p50 \(format(r.median, 2)) ms p99 \(format(r.p99, 2)) ms \(format(load.referenceRate)) req/s"
        + " | ratio p50 \(format(p.median / r.median, 2)) p99 \(format(p.p99 / r.p99, 2)) (\(p.samples.count) + \(r.samples.count) requests)")
}
