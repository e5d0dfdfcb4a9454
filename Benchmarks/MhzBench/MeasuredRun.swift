import BenchKit
import Foundation
import Synchronization

/// One run of a command to its end, with its wall time and peak memory, the same for mhz
/// and curl.
///
/// Its end is taken by a thread blocked in waitpid(2), so sampling does not delay it.
/// The peak is the child's `VmHWM` (/proc/PID/status), read every 10 ms while it runs, not
/// wait4(2)'s `ru_maxrss`: posix_spawn starts the child in the benchmark's own memory
/// (vfork), and at exec the kernel keeps the high-water mark of that memory as the child's
/// `maxrss` — the benchmark's server maps the files it serves, so a child downloading 200 MB
/// would be charged the benchmark's 200 MB. `VmHWM` belongs to the memory the executable
/// got at exec.
struct MeasuredRun {
    /// Wall-clock seconds from spawn to exit.
    var seconds: Double
    /// Peak RSS, MiB.
    var peakRSSMiB: Double
    /// Exit status (128 + signal when killed).
    var status: Int32
    /// CPU seconds (user + system) the child used, from wait4(2)'s rusage (unlike its
    /// `maxrss`, the times start at the child's own start).
    var cpuSeconds: Double = 0

    /// Runs `executable arguments…` with `environment`, stdout and stderr to /dev/null.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> MeasuredRun {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let started = ContinuousClock.now
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw BenchError.tool("cannot start \(executable): \(String(cString: strerror(spawned)))") }
        let ended = Mutex<(status: Int32, at: ContinuousClock.Instant, cpu: Double)?>(nil)
        let child = pid
        let waiter = Thread {
            var status: Int32 = 0
            var usage = rusage()
            while wait4(child, &status, 0, &usage) < 0, errno == EINTR {}
            let at = ContinuousClock.now
            let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
            ended.withLock { $0 = (status, at, cpu) }
        }
        waiter.start()
        var peakKiB = 0
        let name = String(URL(fileURLWithPath: executable).lastPathComponent.prefix(15))
        var end = ended.withLock { $0 }
        while end == nil {
            if let kib = highWaterKiB(pid, name: name) { peakKiB = max(peakKiB, kib) }
            usleep(10_000)
            end = ended.withLock { $0 }
        }
        guard let (status, at, cpu) = end else { throw BenchError.tool("lost \(executable)") }
        let elapsed = at - started
        let exited = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return MeasuredRun(seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18,
                           peakRSSMiB: Double(peakKiB) / 1024, status: exited, cpuSeconds: cpu)
    }

    /// `VmHWM` of `pid` once it runs `name` (before its exec it is the benchmark's memory).
    private static func highWaterKiB(_ pid: pid_t, name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let lines = status.split(separator: "\n")
        guard lines.first == "Name:\t\(name)" else { return nil }
        guard let line = lines.first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
}
