import Foundation

/// A client that sends a request's bytes one at a time, a pause between each, on a thread
/// of its own: headers that take minutes to complete, the slowloris attack. It stops when
/// the server closes the connection, when everything is sent, or at ``stop()``.
///
/// What it saw is kept: how many bytes went out, what came back, whether the server
/// closed the connection and when.
public final class Slowloris: Sendable {
    /// What one slow client saw.
    public struct Outcome: Sendable {
        /// Bytes of the request sent before the connection ended (or before ``stop()``).
        public var bytesSent = 0
        /// What the server sent back.
        public var received = Data()
        /// Whether the server ended the connection (an orderly close or a reset).
        public var closedByServer = false
        /// How long after the connection was begun the server ended it.
        public var closedAfter: Duration?
        /// Whether the thread has finished.
        public var finished = false
    }

    private let state = Locked(Outcome())
    private let stopping = Locked(false)
    private let ended = DispatchSemaphore(value: 0)

    /// Connects to `port` and starts sending `request` one byte per `interval`.
    /// - Throws: `TestSupportError.socketFailed` when the connection cannot be made.
    public init(port: Int, request: String, interval: Duration = .seconds(1)) throws {
        // Before connecting: the server's timers cannot start before this.
        let start = ContinuousClock.now
        let fd = try LoopbackSocket.connectOrFail(port: port)
        let bytes = Array(request.utf8)
        let thread = Thread { [state, stopping, ended] in
            Self.trickle(fd: fd, bytes: bytes, interval: interval, start: start, state: state, stopping: stopping)
            Glibc.close(fd)
            state.withLock { $0.finished = true }
            ended.signal()
        }
        thread.name = "slowloris"
        thread.start()
    }

    deinit { stop() }

    /// What it saw so far.
    public var outcome: Outcome { state.value }

    /// Stops sending and closes the connection; waits (at most 5 s) for the thread to end.
    public func stop() {
        let first = stopping.withLock { stopping -> Bool in
            defer { stopping = true }
            return !stopping
        }
        if first { _ = ended.wait(timeout: .now() + 5) }
    }

    /// Sends one byte, then waits up to `interval` for the server to answer or close.
    private static func trickle(fd: Int32, bytes: [UInt8], interval: Duration, start: ContinuousClock.Instant,
                                state: Locked<Outcome>, stopping: Locked<Bool>) {
        let wait = Int32(interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000)
        var next = 0
        while !stopping.value {
            if next < bytes.count {
                let byte = bytes[next]
                guard withUnsafePointer(to: byte, { send(fd, $0, 1, Int32(MSG_NOSIGNAL)) }) == 1 else { break }
                next += 1
                state.withLock { $0.bytesSent = next }
            }
            // Short polls, so stop() is honoured promptly.
            let until = ContinuousClock.now + .milliseconds(Int64(wait))
            while ContinuousClock.now < until, !stopping.value {
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&entry, 1, 50) == 1 else { continue }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = recv(fd, &buffer, buffer.count, 0)
                if count > 0 {
                    state.withLock { $0.received.append(contentsOf: buffer[0..<count]) }
                    continue
                }
                state.withLock {
                    $0.closedByServer = true
                    $0.closedAfter = ContinuousClock.now - start
                }
                return
            }
        }
        // A failed send: the server reset the connection.
        if !stopping.value {
            state.withLock {
                $0.closedByServer = true
                $0.closedAfter = ContinuousClock.now - start
            }
        }
    }
}
