import BenchKit
import Foundation

/// Skip latency of headless mhz: `skip` written to its standard input → the `playing`
/// event of the next song, which mhz emits when mpv reports the new file's first audio
/// (PLAYBACK_RESTART) — what `MPVIPCSession.skips` times for the mpv command line.
enum SkipLatency {
    /// How long each song plays before it is skipped: long enough for the station's answer
    /// to the previous skip to refill the queue, as it would for a listener.
    static let dwell: useconds_t = 500_000

    /// `skips` skips in one mhz process.
    static func mhz(_ install: MhzInstall, skips: Int) throws -> Stats {
        install.forgetProgress()
        let mhz = try HeadlessMhz(install)
        defer { mhz.quit() }
        _ = try mhz.wait(what: "the first song playing") { $0.name == "playing" }
        var samples: [Double] = []
        for _ in 0..<skips {
            usleep(dwell)
            let mark = mhz.count
            let begin = ContinuousClock.now
            mhz.send("skip")
            let next = try mhz.wait(after: mark, what: "the next song playing after skip") { $0.name == "playing" }
            samples.append(milliseconds(begin, next.at))
        }
        return Stats(samples)
    }

    /// Skips through the control socket beside skips on standard input, alternating in one
    /// mhz process so both meet the same machine: `mhz ctl skip` spawned → the next song's
    /// `playing` event (`ctl`), and the ctl process's own life, spawn to exit with its
    /// answer printed (`roundTrip`), as a window manager's key binding would run it.
    static func control(_ install: MhzInstall, skips: Int) throws -> (stdin: Stats, ctl: Stats, roundTrip: Stats) {
        install.forgetProgress()
        let mhz = try HeadlessMhz(install)
        defer { mhz.quit() }
        _ = try mhz.wait(what: "the first song playing") { $0.name == "playing" }
        var stdin: [Double] = [], ctl: [Double] = [], roundTrip: [Double] = []
        for index in 0..<(2 * skips) {
            usleep(dwell)
            let mark = mhz.count
            let begin = ContinuousClock.now
            if index % 2 == 0 {
                mhz.send("skip")
            } else {
                try runCtl(install, ["skip"])
                roundTrip.append(milliseconds(begin, .now))
            }
            let next = try mhz.wait(after: mark, what: "the next song playing after skip") { $0.name == "playing" }
            if index % 2 == 0 { stdin.append(milliseconds(begin, next.at)) } else { ctl.append(milliseconds(begin, next.at)) }
        }
        return (Stats(stdin), Stats(ctl), Stats(roundTrip))
    }

    /// Runs `mhz ctl arguments…` to its exit (posix_spawn and waitpid: nothing of
    /// Foundation's Process between the measurement and the child).
    private static func runCtl(_ install: MhzInstall, _ arguments: [String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([install.binary, "ctl", "--data-dir", install.dataDirectory.path]
            + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = install.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, install.binary, &actions, nil, argv, envp) == 0 else {
            throw BenchError.tool("cannot run mhz ctl")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        guard status == 0 else { throw BenchError.tool("mhz ctl \(arguments.joined(separator: " ")) exited with \(status)") }
    }
}
