import BenchKit
import Foundation

/// One run of a command to its end, with its wall time and peak memory: spawned with
/// posix_spawn and reaped with wait4(2), whose `ru_maxrss` is the child's peak RSS ("the
/// maximum resident set size used (in kilobytes)", getrusage(2)), the same for mhz and curl.
struct MeasuredRun {
    /// Wall-clock seconds from spawn to exit.
    var seconds: Double
    /// Peak RSS, MiB.
    var peakRSSMiB: Double
    /// Exit status (128 + signal when killed).
    var status: Int32

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
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError.tool("wait4 failed for \(executable)") }
        }
        let elapsed = ContinuousClock.now - started
        let exited = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return MeasuredRun(seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18,
                           peakRSSMiB: Double(usage.ru_maxrss) / 1024, status: exited)
    }
}
