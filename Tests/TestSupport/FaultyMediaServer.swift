import Foundation
import Synchronization

/// A Range-capable HTTP/1.1 file server on an ephemeral 127.0.0.1 port that misbehaves on
/// demand, for testing how a player survives the network: per request, a script may cut the
/// connection after some bytes, stall mid-body, answer with an error status, or drop the
/// connection without answering. Plain POSIX sockets and one thread per connection, so a
/// stall never blocks the cooperative pool or other connections. Records every request as it
/// arrives, its status before the head is sent and its body bytes before each is sent, so a
/// client that has an answer finds it recorded.
public final class FaultyMediaServer: Sendable {
    /// One request as the server saw it, and what it did with it.
    public struct Served: Sendable, Equatable {
        /// The path, e.g. `/tone.mp3`.
        public var path: String
        /// The first byte asked for with `Range: bytes=N-`, nil without a Range header.
        public var rangeStart: Int?
        /// The status sent (0 when the connection was dropped without an answer, or before
        /// the head goes out).
        public var status: Int
        /// Body bytes sent (each piece counted as it is handed to the socket).
        public var sent: Int
        /// How the script answered.
        public var reply: Reply
        /// When it arrived.
        public var time: ContinuousClock.Instant
    }

    /// How to answer one request.
    public enum Reply: Sendable, Equatable {
        /// Serve the file (200, or 206 for a Range request) and complete the body.
        case serve
        /// Serve the file but close the socket once `bytes` of the body are sent (counted
        /// from the requested offset).
        case cutAfter(bytes: Int)
        /// Serve `bytes` of the body, send nothing for `seconds`, then go on.
        case stallAfter(bytes: Int, seconds: Double)
        /// Serve the file no faster than `bytesPerSecond` (a slow network).
        case throttle(bytesPerSecond: Int)
        /// Answer with this status and an empty body.
        case status(Int)
        /// Close the connection without answering.
        case drop
        /// Serve the whole file with 200 even to a Range request (a server without ranges).
        case ignoreRange
        /// Answer a Range request with 206 and the bytes from `start` (not the ones asked for).
        case misplacedRange(start: Int)
        /// Answer 200 with an HTML page (a login wall or error page served as success).
        case html
        /// Send the head of the file's answer, then not a byte of its body until the client
        /// hangs up or the server stops: a server that goes silent after its headers.
        case silentAfterHead
    }

    /// Decides the reply to a request (path, Range start) — called on the connection thread.
    public typealias Script = @Sendable (_ path: String, _ rangeStart: Int?) -> Reply

    /// The served folder.
    public let root: URL
    /// `http://127.0.0.1:<port>`.
    public let baseURL: String
    private let listener: Int32
    private let scripts = Mutex<[String: Script]>([:])
    private let served = Mutex<[Served]>([])
    private let requestDelay = Mutex<Duration>(.zero)
    /// `stopped`: stop() was called; `closed`: the accept thread closed the listener.
    private let lifecycle = Mutex<(stopped: Bool, closed: Bool)>((false, false))

    /// Binds a port and starts accepting.
    /// - Throws: `TestSupportError.serverDidNotStart` when the socket cannot be set up.
    public init(root: URL) throws {
        self.root = root
        let (socket, port) = try LoopbackSocket.listen(backlog: 64)
        listener = socket
        baseURL = "http://127.0.0.1:\(port)"
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "faulty-media-server"
        thread.start()
    }

    deinit { stop() }

    /// The URL of a file under the root.
    public func url(_ name: String) -> String { "\(baseURL)/\(name)" }

    /// Answers requests for `path` (e.g. `/tone.mp3`) with `script` from now on.
    public func script(_ path: String, _ script: @escaping Script) { scripts.withLock { $0[path] = script } }

    /// Every request so far, in arrival order.
    public var requests: [Served] { served.withLock { $0 } }

    /// The requests for one path.
    public func requests(to path: String) -> [Served] { requests.filter { $0.path == path } }

    /// Stops accepting (connections in progress finish on their own). Only wakes the
    /// accept thread: that thread closes the listener when it leaves, so no thread ever
    /// uses the number after it was closed (and perhaps reused by another test's socket).
    public func stop() {
        lifecycle.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            if !state.closed { shutdown(listener, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop() {
        defer {
            lifecycle.withLock { state in
                state.closed = true
                close(listener)
            }
        }
        while !lifecycle.withLock({ $0.stopped }) {
            let connection = LoopbackSocket.accept(listener)
            guard connection >= 0 else { return }
            let thread = Thread { [self] in handle(connection) }
            thread.start()
        }
    }

    private func handle(_ connection: Int32) {
        defer { close(connection) }
        // One request per connection: mpv/ffmpeg open a new one for every Range anyway.
        guard let head = readHead(connection) else { return }
        let (path, rangeStart, rangeEnd) = Self.parse(head)
        let script = scripts.withLock { $0[path] }
        let reply = script?(path, rangeStart) ?? .serve
        let index = served.withLock { list in
            list.append(Served(path: path, rangeStart: rangeStart, status: 0, sent: 0, reply: reply, time: .now))
            return list.count - 1
        }
        let delay = requestDelay.withLock { $0 }
        if delay > .zero { Thread.sleep(forTimeInterval: Double(delay.components.attoseconds) * 1e-18 + Double(delay.components.seconds)) }
        respond(connection, path: path, rangeStart: rangeStart, rangeEnd: rangeEnd, reply: reply) { status, sent in
            served.withLock { list in
                list[index].status = status
                list[index].sent = sent
            }
        }
    }

    /// A wait before every answer (a distant server's round trip), zero by default.
    public func delayEveryRequest(by delay: Duration) { requestDelay.withLock { $0 = delay } }

    /// Sends the reply, telling `note` the status before the head is sent and the body
    /// bytes sent before each piece of the body is (and again when a piece did not go).
    private func respond(_ connection: Int32, path: String, rangeStart asked: Int?, rangeEnd: Int?, reply: Reply,
                         note: (_ status: Int, _ sent: Int) -> Void) {
        if case .drop = reply { return }
        if case .status(let code) = reply {
            note(code, 0)
            send(connection, "HTTP/1.1 \(code) Scripted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        if case .html = reply {
            let page = "<!DOCTYPE html><html><head><title>Sign in</title></head><body>Please sign in.</body></html>"
            note(200, page.utf8.count)
            send(connection, "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                + "Content-Length: \(page.utf8.count)\r\nConnection: close\r\n\r\n" + page)
            return
        }
        let file = root.appendingPathComponent(String(path.dropFirst()))
        guard let data = try? Data(contentsOf: file, options: .alwaysMapped) else {
            note(404, 0)
            send(connection, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        var rangeStart = asked, rangeEnd = rangeEnd
        if case .ignoreRange = reply { rangeStart = nil }
        if case .misplacedRange(let start) = reply, asked != nil { (rangeStart, rangeEnd) = (start, nil) }
        if let first = rangeStart, first >= data.count {
            // RFC 9110 §15.5.17: a range past the end is not satisfiable, and the answer
            // names the length ("bytes */LENGTH").
            note(416, 0)
            send(connection, "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */\(data.count)\r\n"
                + "Content-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        let start = min(rangeStart ?? 0, data.count)
        // `bytes=FIRST-LAST` (an HLS byte range) ends at LAST; `bytes=FIRST-` at the end.
        let end = rangeStart == nil ? data.count - 1 : min(rangeEnd ?? data.count - 1, data.count - 1)
        let body = data[start..<(end + 1)]
        var head = rangeStart == nil ? "HTTP/1.1 200 OK\r\n" : "HTTP/1.1 206 Partial Content\r\n"
        if rangeStart != nil { head += "Content-Range: bytes \(start)-\(end)/\(data.count)\r\n" }
        head += "Accept-Ranges: bytes\r\nContent-Type: \(Self.mimeType(path))\r\n"
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let status = rangeStart == nil ? 200 : 206
        note(status, 0)
        send(connection, head)
        if case .silentAfterHead = reply {
            waitForHangUp(connection)
            return
        }
        let limit: Int
        var stall: (after: Int, seconds: Double)?
        switch reply {
        case .cutAfter(let bytes): limit = min(bytes, body.count)
        case .stallAfter(let bytes, let seconds): limit = body.count; stall = (bytes, seconds)
        default: limit = body.count
        }
        var rate: Int?
        if case .throttle(let bytesPerSecond) = reply { rate = max(1, bytesPerSecond) }
        let started = ContinuousClock.now
        var offset = 0
        while offset < limit {
            var chunk = min(rate.map { max(1, $0 / 20) } ?? 16 * 1024, limit - offset)
            if let pause = stall, offset < pause.after { chunk = min(chunk, pause.after - offset) }
            let slice = body[(body.startIndex + offset)..<(body.startIndex + offset + chunk)]
            note(status, offset + chunk)
            guard sendAll(connection, Data(slice)) else {
                note(status, offset)
                break
            }
            offset += chunk
            if let rate {
                let due = started + .milliseconds(Int64(Double(offset) / Double(rate) * 1000))
                let wait = ContinuousClock.now.duration(to: due)
                if wait > .zero { Thread.sleep(forTimeInterval: Double(wait.components.seconds) + Double(wait.components.attoseconds) * 1e-18) }
            }
            if let pause = stall, offset == pause.after {
                Thread.sleep(forTimeInterval: pause.seconds)
                stall = nil
            }
        }
        if case .cutAfter = reply { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    /// Holds `connection` open without sending until its client closes it or the server
    /// stops, looking at both ten times a second.
    private func waitForHangUp(_ connection: Int32) {
        while !lifecycle.withLock({ $0.stopped }) {
            var entry = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) >= 0 || errno == EINTR else { return }
            if entry.revents != 0, LoopbackSocket.isClosedByPeer(connection) { return }
        }
    }

    private func readHead(_ connection: Int32) -> String? {
        var buffer = Data()
        return SocketIO.readHead(connection, buffer: &buffer).map { String(decoding: $0, as: UTF8.self) }
    }

    static func parse(_ head: String) -> (path: String, rangeStart: Int?, rangeEnd: Int?) {
        let lines = head.components(separatedBy: "\r\n")
        let target = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
        var start: Int?, end: Int?
        for line in lines.dropFirst() where line.lowercased().hasPrefix("range:") {
            let value = line.dropFirst("range:".count).trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("bytes="), let dash = value.firstIndex(of: "-") {
                start = Int(value[value.index(value.startIndex, offsetBy: 6)..<dash])
                end = Int(value[value.index(after: dash)...])
            }
        }
        return (path.removingPercentEncoding ?? path, start, end)
    }

    private static func mimeType(_ path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "mp3": "audio/mpeg"
        case "ogg": "audio/ogg"
        case "m4a": "audio/mp4"
        case "m3u8": "application/vnd.apple.mpegurl"
        case "ts": "video/mp2t"
        default: "application/octet-stream"
        }
    }

    private func send(_ connection: Int32, _ text: String) { SocketIO.sendAll(connection, Data(text.utf8)) }

    private func sendAll(_ connection: Int32, _ data: Data) -> Bool { SocketIO.sendAll(connection, data) }
}
