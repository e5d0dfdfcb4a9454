import Foundation

/// CPU time and memory of another process, read from `/proc/PID/stat` and
/// `/proc/PID/status`: mhz and mpv are measured the same way, from outside, while they run.
struct ProcSample {
    /// User + system CPU seconds of all its threads so far.
    var cpuSeconds: Double
    /// Peak resident set size so far (`VmHWM`), MiB.
    var peakRSSMiB: Double

    /// Samples process `pid`; nil once it is gone.
    static func read(_ pid: Int32) -> ProcSample? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)": field 3 is the state, so utime (14) and stime (15) are the
        // 12th and 13th fields after the parenthesis.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        let kib = Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        return ProcSample(cpuSeconds: (user + system) / ticks, peakRSSMiB: kib / 1024)
    }
}
