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
