import Foundation
import Synchronization

/// Runs the `mpv` command-line player on the same media, as the yardstick: what mhz is
/// compared with is what a listener would otherwise type.
public struct MPVCommandLine: Sendable {
    /// The options every run shares: the CLI counterpart of the player's own settings.
    public static let base = ["--no-config", "--load-scripts=no", "--ytdl=no", "--ao=null", "--no-video",
                       "--cache=yes", "--demuxer-max-bytes=16MiB", "--gapless-audio=yes", "--prefetch-playlist=yes"]

    /// The least a listener would type: mpv's defaults (its own cache settings) without a
    /// configuration, scripts or video, for the peak-RSS reference of an MP3 over HTTP.
    public static let lean = ["--no-config", "--load-scripts=no", "--ytdl=no", "--ao=null", "--no-video"]

    /// The executable, found on PATH; nil when mpv is not installed.
    public let executable: String

    /// Uses the mpv at `executable`.
    public init(executable: String) { self.executable = executable }

    /// Finds `mpv` on PATH.
    public static func find() -> MPVCommandLine? {
        Executable.find("mpv").map { MPVCommandLine(executable: $0) }
    }

    /// The command line for display.
    public func commandLine(_ extra: [String]) -> String { (["mpv"] + Self.base + extra).joined(separator: " ") }

    /// Spawns mpv with `arguments`, waits, and returns its CPU time (wait4's rusage), its
    /// peak RSS, its wall time and its stderr.
    ///
    /// The peak RSS is sampled from `/proc/<pid>/status` while mpv runs, not taken from
    /// wait4's `ru_maxrss`: posix_spawn execs from this process's address space (vfork),
    /// and Linux carries the old address space's high-water mark into the child's maxrss,
    /// so `ru_maxrss` reported this (much larger) bench process's peak instead of mpv's.
    public func run(_ arguments: [String]) throws -> (cpu: Double, maxRSSMiB: Double, wall: Double, log: String) {
        let logFile = FileManager.default.temporaryDirectory.appendingPathComponent("mhz-bench-mpv-\(getpid()).log")
        let argv = [executable] + Self.base + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let begin = ContinuousClock.now
        let rc = posix_spawn(&pid, executable, &actions, nil, cArguments, environ)
        guard rc == 0 else { throw BenchError.mpv("posix_spawn failed: \(rc)") }
        let sampler = RSSSampler(pid: pid)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError.mpv("wait4 failed: \(errno)") }
        }
        let wall = milliseconds(begin, .now)
        let peakKiB = sampler.stop()
        let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: logFile)
        return (cpu, peakKiB / 1024, wall, log)
    }

    /// The log levels `firstAudio` needs: cplayer's "playback restart complete" and
    /// ffmpeg's "Opening <url>".
    public static let firstAudioLogLevels = "--msg-level=all=warn,cplayer=v,demux=v,ffmpeg=v"

    /// mpv's own load → "playback restart complete" (its `--msg-time` clock, from the line
    /// that begins the file: "Playing: <url>" where mpv prints it, else ffmpeg's "Opening
    /// <url>" — mpv 0.35 prints "Playing:" only for playlists of more than one entry),
    /// `runs` times over the media in turn, one process each.
    public func firstAudio(urls: [String], runs: Int) throws -> (restart: Stats, process: Stats) {
        var restart: [Double] = []
        var process: [Double] = []
        for run in 0..<runs {
            let url = urls[run % urls.count]
            let result = try self.run(["--msg-time", Self.firstAudioLogLevels, "--length=0.01", url])
            process.append(result.wall)
            guard let begin = Self.time(of: "Playing: ", in: result.log) ?? Self.time(of: "Opening \(url)", in: result.log),
                  let end = Self.time(of: "playback restart complete", in: result.log) else {
                throw BenchError.mpv("no restart line in: \(result.log.prefix(400))")
            }
            restart.append((end - begin) * 1000)
        }
        return (Stats(restart), Stats(process))
    }

    /// The `--msg-time` stamp (seconds) of the first line containing `text`.
    public static func time(of text: String, in log: String) -> Double? {
        for line in log.split(separator: "\n") where line.contains(text) {
            guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { continue }
            return Double(line[line.index(after: line.startIndex)..<close].trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// CPU seconds and max RSS of mpv playing `url` for `seconds`, and the CPU of the same
    /// command with `--length=0.01` (process start, load, quit), so the start-up cost can be
    /// told apart from playback (the player's own number is a delta while playing).
    public func playback(url: String, seconds: Double) throws -> (cpu: Double, startupCPU: Double, maxRSS: Double) {
        let result = try run(["--length=\(seconds)", url])
        let startup = try run(["--length=0.01", url])
        return (result.cpu, startup.cpu, result.maxRSSMiB)
    }
}

/// Samples a child's `VmHWM` every 10 ms on a thread of its own until stopped, keeping the
/// largest value (the last samples before exit see the child's true peak).
public final class RSSSampler: Sendable {
    private let state = Mutex<(done: Bool, peakKiB: Double)>((false, 0))
    private let finished = DispatchSemaphore(value: 0)

    /// Starts sampling `pid`.
    public init(pid: pid_t) {
        let thread = Thread { [self] in
            while !state.withLock({ $0.done }) {
                if let kib = Self.peakRSSKiB(of: pid) {
                    state.withLock { $0.peakKiB = max($0.peakKiB, kib) }
                }
                usleep(10_000)
            }
            finished.signal()
        }
        thread.start()
    }

    /// Stops sampling; returns the peak seen, KiB.
    public func stop() -> Double {
        state.withLock { $0.done = true }
        finished.wait()
        return state.withLock { $0.peakKiB }
    }

    /// `VmHWM` of `pid` from `/proc/<pid>/status`, KiB; nil once it has exited.
    private static func peakRSSKiB(of pid: pid_t) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Double(line.split(separator: " ").dropFirst().first ?? "")
    }
}
