import Foundation
import Synchronization

/// An `mpv --input-ipc-server` process driven over its JSON socket: skip latencies measured
/// the same way as the player's (command sent → `playback-restart`), and first audio of a
/// fresh process (spawn → `time-pos` past a threshold), with every line stamped as it
/// arrives.
public final class MPVIPCSession: @unchecked Sendable {
    private let process = Process()
    private let socket: Int32
    private let lines = LineLog()
    private let socketPath: String

    /// When the process was spawned (just before `posix_spawn`).
    public let spawned: ContinuousClock.Instant

    /// Starts mpv with `arguments` after `base` (by default the shared base options; idle,
    /// waiting for commands) and connects to its socket, retrying every millisecond while mpv
    /// starts, so a cold start can be timed from the spawn.
    public init(_ mpv: MPVCommandLine, arguments: [String] = ["--idle=yes"], base: [String] = MPVCommandLine.base) throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("mhz-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock").path
        socketPath = path
        unlink(path)
        process.executableURL = URL(fileURLWithPath: mpv.executable)
        process.arguments = base + ["--input-ipc-server=\(path)", "--really-quiet"] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        spawned = .now
        try process.run()
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        socket = fd
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1)) + [0]
            raw.copyBytes(from: bytes)
        }
        let deadline = ContinuousClock.now + .seconds(10)
        var connected = false
        while !connected, ContinuousClock.now < deadline, process.isRunning {
            connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
                }
            }
            if !connected { usleep(1000) }
        }
        guard connected else {
            Glibc.close(fd)
            if process.isRunning { process.terminate() }
            throw BenchError.mpv("could not connect to \(path)")
        }
        let lines = self.lines
        Thread {
            var pending = Data()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                guard count > 0 else { return }
                let now = ContinuousClock.now
                pending.append(contentsOf: buffer[0..<count])
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    lines.append(line, at: now)
                }
            }
        }.start()
    }

    /// The mpv process id, for reading its `/proc` entries.
    public var pid: Int32 { process.processIdentifier }

    /// Sends one command (JSON array of strings).
    public func send(_ command: [String]) {
        sendJSON("{\"command\":[" + command.map { "\"\($0)\"" }.joined(separator: ",") + "]}")
    }

    /// Sends one JSON object as it is (for commands with number arguments).
    private func sendJSON(_ json: String) {
        _ = (json + "\n").withCString { Glibc.send(socket, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// How many lines have arrived.
    public var count: Int { lines.count }

    /// Waits for a line after `index` containing `text`; returns when it arrived.
    public func wait(for text: String, after index: Int, timeout: Duration = .seconds(15)) throws -> ContinuousClock.Instant {
        try wait(after: index, timeout: timeout, what: text) { $0.contains(text) }
    }

    /// Waits for a line after `index` that `match` accepts; returns when it arrived.
    public func wait(after index: Int, timeout: Duration = .seconds(15), what: String,
                     _ match: (String) -> Bool) throws -> ContinuousClock.Instant {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let found = lines.first(after: index, where: match) { return found }
            usleep(200)
        }
        throw BenchError.mpv("no \(what) within \(timeout)")
    }

    /// Starts observing `time-pos` (mpv answers at once with its current value, so nothing
    /// is missed by having connected late); returns the line count to wait after.
    public func observePosition() -> Int {
        let mark = count
        sendJSON(#"{"command":["observe_property",1,"time-pos"]}"#)
        return mark
    }

    /// Waits until `time-pos` reports at least `threshold` seconds after line `mark` (from
    /// ``observePosition()``): 0 is the file's first audio, more is audio being clocked out.
    /// Returns when that line arrived.
    public func waitForPosition(atLeast threshold: Double, after mark: Int, timeout: Duration = .seconds(15)) throws
        -> ContinuousClock.Instant
    {
        try wait(after: mark, timeout: timeout, what: "time-pos ≥ \(threshold)") { line in
            guard line.contains("\"time-pos\""), let data = line.range(of: "\"data\":") else { return false }
            let number = line[data.upperBound...].prefix { "0123456789.-e".contains($0) }
            return (Double(number) ?? -1) >= threshold
        }
    }

    /// Skip latencies like `PlayerBench.skips`: `loadfile … replace`, and `append` +
    /// `playlist-next` after a prefetch pause.
    public func skips(urls: [String], count: Int) throws -> (replace: Stats, queued: Stats) {
        var mark = self.count
        send(["loadfile", urls[0], "replace"])
        _ = try wait(for: "\"playback-restart\"", after: mark)
        var replace: [Double] = []
        var queued: [Double] = []
        for skip in 0..<count {
            mark = self.count
            let begin = ContinuousClock.now
            send(["loadfile", urls[(skip + 1) % urls.count], "replace"])
            replace.append(milliseconds(begin, try wait(for: "\"playback-restart\"", after: mark)))
            usleep(150_000)
        }
        for skip in 0..<count {
            send(["loadfile", urls[(skip + 1) % urls.count], "append"])
            usleep(400_000)
            mark = self.count
            let begin = ContinuousClock.now
            send(["playlist-next"])
            queued.append(milliseconds(begin, try wait(for: "\"playback-restart\"", after: mark)))
        }
        return (Stats(replace), Stats(queued))
    }

    /// Quits mpv and waits for it to exit.
    public func close() {
        send(["quit"])
        Glibc.close(socket)
        process.waitUntilExit()
        unlink(socketPath)
    }
}

/// The lines read from mpv's socket, each with the instant it arrived.
private final class LineLog: Sendable {
    private let entries = Mutex<[(line: String, at: ContinuousClock.Instant)]>([])

    func append(_ line: String, at instant: ContinuousClock.Instant) {
        entries.withLock { $0.append((line, instant)) }
    }

    var count: Int { entries.withLock { $0.count } }

    func first(after index: Int, where match: (String) -> Bool) -> ContinuousClock.Instant? {
        entries.withLock { $0.dropFirst(index).first { match($0.line) }?.at }
    }
}
