import Foundation

/// CPU time (user + system) and peak resident memory of this process so far: the
/// in-process player's cost is a delta of this around playback.
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
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        let kib = Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        return ResourceUsage(cpuSeconds: cpu, peakRSSMiB: kib / 1024)
    }
}
