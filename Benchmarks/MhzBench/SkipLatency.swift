import BenchKit
import Foundation
import TestSupport

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

    /// Skips through the control socket beside skips on standard input, taking turns in one
    /// mhz process so all meet the same machine: `skip` on stdin (`stdin`); `mhz ctl skip`
    /// spawned → the next song's `playing` event (`ctl`), and that ctl process's own life,
    /// spawn to exit with its answer printed (`roundTrip`), as a window manager's key
    /// binding runs it; and `skip` written on a connection to the socket kept open, as a
    /// script or status bar holds one (`socket`).
    static func control(_ install: MhzInstall, skips: Int) throws
        -> (stdin: Stats, ctl: Stats, roundTrip: Stats, socket: Stats)
    {
        install.forgetProgress()
        let mhz = try HeadlessMhz(install)
        defer { mhz.quit() }
        _ = try mhz.wait(what: "the first song playing") { $0.name == "playing" }
        let connection = try ControlConnection(path: install.dataDirectory.appendingPathComponent("mhz.sock").path)
        var stdin: [Double] = [], ctl: [Double] = [], roundTrip: [Double] = [], socket: [Double] = []
        for index in 0..<(3 * skips) {
            usleep(dwell)
            let mark = mhz.count
            let begin = ContinuousClock.now
            switch index % 3 {
            case 0: mhz.send("skip")
            case 1:
                try runCtl(install, ["skip"])
                roundTrip.append(milliseconds(begin, .now))
            default: try connection.send("skip")
            }
            let next = try mhz.wait(after: mark, what: "the next song playing after skip") { $0.name == "playing" }
            let elapsed = milliseconds(begin, next.at)
            switch index % 3 {
            case 0: stdin.append(elapsed)
            case 1: ctl.append(elapsed)
            default:
                socket.append(elapsed)
                try connection.readAnswer()
            }
        }
        return (Stats(stdin), Stats(ctl), Stats(roundTrip), Stats(socket))
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

/// One connection to mhz's control socket, kept open: a line out, its answer line back.
private final class ControlConnection {
    private let fd: Int32

    /// Connects to the socket at `path` (without XDG_RUNTIME_DIR it is `mhz.sock` in the
    /// data directory).
    init(path: String) throws {
        guard let fd = connectUnixSocket(path) else { throw BenchError.tool("cannot connect to mhz's control socket \(path)") }
        self.fd = fd
    }

    /// Writes one command line.
    func send(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            throw BenchError.tool("the control socket refused a write")
        }
    }

    /// Reads the answer line to the last command (answers are short: one read holds one).
    func readAnswer() throws {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var got: [UInt8] = []
        while !got.contains(10) {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { throw BenchError.tool("the control socket closed") }
            got += buffer[0..<count]
        }
        guard String(decoding: got, as: UTF8.self).contains("\"ok\":true") else {
            throw BenchError.tool("the control socket answered \(String(decoding: got, as: UTF8.self))")
        }
    }

    deinit { close(fd) }
}
