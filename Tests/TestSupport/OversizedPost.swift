import Foundation

/// A POST of a body far larger than any form, sent over a plain socket as fast as the
/// server takes it while its answer is read at the same time: what a server says to it,
/// and how much of the body it took before saying so.
public enum OversizedPost {
    /// How the body's size is told.
    public enum Framing: Sendable {
        /// `Content-Length` announces the whole size up front.
        case declared
        /// `Transfer-Encoding: chunked`: the server learns the size only by reading.
        case chunked
    }

    /// What came of one POST.
    public struct Outcome: Sendable {
        /// The answer's status code (0 when none came).
        public var status: Int
        /// The answer's header lines as sent, names lowercased.
        public var headers: [(name: String, value: String)]
        /// The answer's body (up to its `Content-Length`).
        public var body: Data
        /// Bytes sent after the head (the body, with its chunk framing when chunked) before
        /// the server answered, closed or stopped reading.
        public var bodyBytesSent: Int
        /// Whether the server closed the connection after its answer.
        public var closedByServer: Bool

        /// The value of the header `name`, if sent once or more (the first).
        public func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
    }

    /// Sends `POST path` with a form body of `size` bytes (`a=` and then `x`s) to
    /// 127.0.0.1:`port`, reading as it goes; stops sending once the answer is in, and then
    /// waits up to `closeWait` for the server to close the connection. Blocks: call it off
    /// Swift's cooperative pool.
    /// - Throws: `TestSupportError.socketFailed` when the connection cannot be made,
    ///   `TestSupportError.timeout` when no answer came within `deadline`.
    public static func send(port: Int, path: String, size: Int, framing: Framing = .declared,
                            closeWait: Duration = .seconds(10), deadline: Duration = .seconds(60)) throws -> Outcome {
        let fd = try LoopbackSocket.connectOrFail(port: port)
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        // A small send buffer: what is sent is what the server's side took, not a few
        // megabytes queued in this socket by the kernel's autotuning.
        var buffer: Int32 = 65_536
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &buffer, socklen_t(MemoryLayout<Int32>.size))
        let length = framing == .declared ? "Content-Length: \(size)" : "Transfer-Encoding: chunked"
        let head = Array(("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(length)\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\n\r\n").utf8)
        var pending = head
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 65_536)
        var sent = 0, bodyQueued = 0
        var received = Data()
        var outcome = Outcome(status: 0, headers: [], body: Data(), bodyBytesSent: 0, closedByServer: false)
        let end = ContinuousClock.now + deadline
        var answered: ContinuousClock.Instant?
        var writable = true
        while ContinuousClock.now < end {
            if pending.isEmpty, writable, answered == nil, bodyQueued < size {
                let piece = min(chunk.count, size - bodyQueued)
                var bytes = bodyQueued == 0 ? Array("a=".utf8) + chunk[2..<piece] : Array(chunk[0..<piece])
                if framing == .chunked {
                    bytes = Array((String(piece, radix: 16) + "\r\n").utf8) + bytes + Array("\r\n".utf8)
                    if bodyQueued + piece == size { bytes += Array("0\r\n\r\n".utf8) }
                }
                pending = bytes
                bodyQueued += piece
            }
            var entry = pollfd(fd: fd, events: Int16(POLLIN) | (pending.isEmpty || !writable ? 0 : Int16(POLLOUT)),
                               revents: 0)
            guard poll(&entry, 1, 50) >= 0 else { throw TestSupportError.socketFailed("poll: \(errno)") }
            if entry.revents & Int16(POLLOUT) != 0, !pending.isEmpty {
                let count = Glibc.send(fd, pending, pending.count, Int32(MSG_NOSIGNAL))
                if count > 0 {
                    sent += count
                    pending.removeFirst(count)
                } else if errno != EAGAIN {
                    writable = false  // EPIPE or a reset: the server stopped reading
                }
            }
            if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                var buffer = [UInt8](repeating: 0, count: 65_536)
                let count = recv(fd, &buffer, buffer.count, 0)
                if count > 0 {
                    received.append(contentsOf: buffer[0..<count])
                } else if count == 0 || errno != EAGAIN {
                    outcome.closedByServer = true
                    break
                }
            }
            if answered == nil, let parsed = parse(received) {
                (outcome.status, outcome.headers, outcome.body) = parsed
                answered = ContinuousClock.now
            }
            if let answered, ContinuousClock.now - answered > closeWait { break }
        }
        if answered == nil {
            guard let parsed = parse(received) else {
                throw TestSupportError.timeout("no answer to a \(size)-byte POST \(path); got \(received.count) bytes")
            }
            (outcome.status, outcome.headers, outcome.body) = parsed
        }
        outcome.bodyBytesSent = max(0, sent - head.count)
        return outcome
    }

    /// Status, headers and body once a whole answer (head and `Content-Length` bytes) is in.
    private static func parse(_ data: Data) -> (Int, [(name: String, value: String)], Data)? {
        guard let split = data.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        var lines = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length = headers.first { $0.name == "content-length" }.flatMap { Int($0.value) } ?? 0
        let body = data[split.upperBound...]
        guard body.count >= length else { return nil }
        return (status, headers, Data(body.prefix(length)))
    }
}
