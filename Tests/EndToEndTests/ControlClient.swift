import Foundation
import TestSupport

/// A raw client of mhz's control socket for tests: connects with unix(7) calls, writes
/// bytes, and reads lines with poll(2) deadlines (no dispatch sources). Reads block, so they
/// run off the cooperative pool (``offPool(_:)``); one test uses a client at a time.
final class ControlClient: @unchecked Sendable {
    private let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `path`.
    init(path: String) throws {
        guard let fd = connectUnixSocket(path) else {
            throw TestSupportError.timeout("cannot connect to \(path): errno \(errno)")
        }
        self.fd = fd
    }

    /// Writes `bytes` as they are.
    func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw TestSupportError.timeout("send failed: errno \(errno)") }
            sent += count
        }
    }

    /// Writes one line.
    func send(_ line: String) throws { try write(Array((line + "\n").utf8)) }

    /// The next line, or a timeout error; nil when mhz closed the connection.
    func line(timeout: Double = 10) async throws -> String? {
        try await offPool { try self.blockingLine(timeout: timeout) }
    }

    private func blockingLine(timeout: Double) throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let left = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, left) > 0 else { throw TestSupportError.timeout("no line within \(timeout) s") }
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// The next line parsed as a JSON object.
    func object(timeout: Double = 10) async throws -> [String: Any] {
        guard let line = try await line(timeout: timeout) else { throw TestSupportError.timeout("connection closed") }
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw TestSupportError.timeout("not a JSON object: \(line)")
        }
        return object
    }

    /// Lines until one whose `event` is `name` (the ones before it are returned too).
    func lines(until name: String, timeout: Double = 20) async throws -> [String] {
        var seen: [String] = []
        let deadline = Date().addingTimeInterval(timeout)
        while let line = try await line(timeout: max(0.1, deadline.timeIntervalSinceNow)) {
            seen.append(line)
            if line.contains("\"event\":\"\(name)\"") { return seen }
        }
        throw TestSupportError.timeout("connection closed before \(name); saw \(seen)")
    }

    deinit { close(fd) }
}
