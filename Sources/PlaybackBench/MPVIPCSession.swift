import Foundation
import TestSupport

/// An `mpv --idle --input-ipc-server` process driven over its JSON socket, for skip
/// latencies measured the same way as the player's: command sent → `playback-restart`.
final class MPVIPCSession {
    private let process = Process()
    private let socket: Int32
    private let lines = Locked<[(String, ContinuousClock.Instant)]>([])
    private let socketPath: String

    /// Starts mpv and connects to its socket.
    init(_ mpv: MPVCommandLine) throws {
        socketPath = FileManager.default.temporaryDirectory.appendingPathComponent("mhz-bench-\(getpid()).sock").path
        unlink(socketPath)
        process.executableURL = URL(fileURLWithPath: mpv.executable)
        process.arguments = MPVCommandLine.base + ["--idle=yes", "--input-ipc-server=\(socketPath)", "--really-quiet"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        socket = fd
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(socketPath.utf8.prefix(raw.count - 1)) + [0]
            raw.copyBytes(from: bytes)
        }
        let deadline = ContinuousClock.now + .seconds(10)
        var connected = false
        while !connected, ContinuousClock.now < deadline {
            connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
                }
            }
            if !connected { usleep(20_000) }
        }
        guard connected else { throw BenchError.mpv("could not connect to \(socketPath)") }
        let lines = self.lines
        Thread {
            let socket = fd
            var pending = Data()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(socket, &buffer, buffer.count, 0)
                guard count > 0 else { return }
                let now = ContinuousClock.now
                pending.append(contentsOf: buffer[0..<count])
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    lines.withLock { $0.append((line, now)) }
                }
            }
        }.start()
    }

    /// Sends one command (JSON array of strings).
    func send(_ command: [String]) {
        let json = "{\"command\":[" + command.map { "\"\($0)\"" }.joined(separator: ",") + "]}\n"
        _ = json.withCString { Glibc.send(socket, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// How many lines have arrived.
    var count: Int { lines.withLock { $0.count } }

    /// Waits for a line after `index` containing `text`; returns when it arrived.
    func wait(for text: String, after index: Int, timeout: Duration = .seconds(15)) throws -> ContinuousClock.Instant {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let found = lines.withLock({ $0.dropFirst(index).first { $0.0.contains(text) }?.1 }) { return found }
            usleep(200)
        }
        throw BenchError.mpv("no \(text) within \(timeout)")
    }

    /// Skip latencies like `PlayerBench.skips`: `loadfile … replace`, and `append` +
    /// `playlist-next` after a prefetch pause.
    func skips(urls: [String], count: Int) throws -> (replace: Stats, queued: Stats) {
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

    /// Quits mpv.
    func close() {
        send(["quit"])
        Glibc.close(socket)
        process.waitUntilExit()
        unlink(socketPath)
    }
}
