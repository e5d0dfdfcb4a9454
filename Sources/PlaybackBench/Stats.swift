import Foundation

/// Summary statistics over a list of measurements, in milliseconds.
struct Stats: CustomStringConvertible {
    /// The sorted samples.
    let samples: [Double]

    /// Sorts `samples` (milliseconds).
    init(_ samples: [Double]) { self.samples = samples.sorted() }

    /// The value below which `fraction` of the samples lie (nearest rank).
    func percentile(_ fraction: Double) -> Double {
        guard !samples.isEmpty else { return .nan }
        let rank = Int((fraction * Double(samples.count)).rounded(.up)) - 1
        return samples[min(max(rank, 0), samples.count - 1)]
    }

    /// The median.
    var median: Double { percentile(0.5) }
    /// The 95th percentile.
    var p95: Double { percentile(0.95) }

    /// "p50 / p95 (n)".
    var description: String { String(format: "%.1f / %.1f ms (n=%d)", median, p95, samples.count) }
}

/// Milliseconds between two instants.
func milliseconds(_ from: ContinuousClock.Instant, _ to: ContinuousClock.Instant) -> Double {
    let duration = from.duration(to: to)
    return Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

/// CPU time (user + system) and peak resident memory of this process so far.
struct ResourceUsage {
    /// Seconds of CPU.
    var cpuSeconds: Double
    /// Peak RSS in MiB (`VmHWM`).
    var peakRSSMiB: Double

    /// Reads `getrusage(RUSAGE_SELF)` and `/proc/self/status`.
    static func current() -> ResourceUsage {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return ResourceUsage(cpuSeconds: cpu, peakRSSMiB: (peakRSSKiB(of: "self") ?? 0) / 1024)
    }

    /// `VmHWM` of a process (`"self"` or a pid) in KiB; nil once it has exited.
    static func peakRSSKiB(of process: String) -> Double? { statusKiB("VmHWM:", of: process) }

    /// `VmRSS` (resident now) of this process in MiB.
    static func residentMiB() -> Double { (statusKiB("VmRSS:", of: "self") ?? 0) / 1024 }

    /// A KiB field of `/proc/<process>/status`.
    private static func statusKiB(_ field: String, of process: String) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }) else { return nil }
        return Double(line.split(separator: " ").dropFirst().first ?? "")
    }
}
