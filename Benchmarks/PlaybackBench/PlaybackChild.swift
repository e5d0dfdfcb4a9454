import BenchKit
import Foundation

/// Runs the CPU/RSS measurement of `PlayerBench.playback` in a fresh copy of this
/// executable, so its peak RSS is the player's and not the high-water mark of the earlier
/// measurements' players, the media generation and the HTTP server, which a process cannot
/// give back (a fair comparison with the mpv CLI, which is measured as a process of its own).
enum PlaybackChild {
    /// The first argument that makes this executable the child.
    static let flag = "--playback-child"

    /// In the child: measures and prints `cpu peakRSS baseRSS played` on one line.
    static func runAsChild(_ arguments: [String]) throws -> Never {
        guard arguments.count == 4, let seconds = Double(arguments[3]) else {
            throw BenchError.mpv("usage: \(flag) URL SECONDS")
        }
        let usage = try PlayerBench(urls: [], longURL: arguments[2]).playback(seconds: seconds)
        print("\(usage.cpu) \(usage.peakRSS) \(usage.baseRSS) \(usage.played)")
        exit(0)
    }

    /// In the parent: runs the child over `url` and reads its line.
    static func measure(url: String, seconds: Double) throws -> (cpu: Double, peakRSS: Double, baseRSS: Double,
                                                                  played: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = [flag, url, String(seconds)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = String(decoding: data, as: UTF8.self).split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard process.terminationStatus == 0, fields.count == 4 else {
            throw BenchError.mpv("the playback child failed (status \(process.terminationStatus)): \(fields)")
        }
        return (fields[0], fields[1], fields[2], fields[3])
    }
}
