import Foundation
import TestSupport

/// A bare HTTP/1.1 server on 127.0.0.1, written on sockets, for what a server framework
/// hides from a test: how many TCP connections the client opened, the exact bytes of a
/// request body, and answers sent byte for byte (a gzip body, a redirect that sets a
/// cookie). Connections are kept alive as HTTP/1.1 says; one thread accepts, one thread
/// serves each connection.
final class RawHTTPServer: Sendable {
    /// One request as it arrived.
    struct Request: Sendable {
        /// Which accepted connection carried it, counting from 0.
        var connection: Int
        /// `GET`, `POST`.
        var method: String
        /// The request target (`/path?query`).
        var target: String
        /// Header lines in order, names lowercased.
        var headers: [(name: String, value: String)]
        /// The body, exactly as sent (Content-Length bytes).
        var body: Data

        /// The first value of a header, by lowercased name.
        func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
    }

    /// Builds the raw answer (status line, headers, body) to a request.
    typealias Responder = @Sendable (Request) -> Data

    /// The port it listens on.
    let port: Int
    private let fd: Int32
    private let responder: Responder
    private let state = Locked(State())

    private struct State {
        var connections = 0
        var requests: [Request] = []
        var clients: [Int32] = []
        var stopped = false
        /// The accept thread closed the listener (its number may be reused from then on).
        var listenerClosed = false
    }

    /// Binds an ephemeral port, listens and starts accepting.
    init(responder: @escaping Responder) throws {
        let (fd, port) = try LoopbackSocket.listen(backlog: 16)
        self.fd = fd
        self.responder = responder
        self.port = port
        let accepting = Thread { [self] in acceptLoop() }
        accepting.name = "raw-http-accept"
        accepting.start()
    }

    deinit { stop() }

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// TCP connections accepted so far.
    var connectionsAccepted: Int { state.value.connections }

    /// Every request so far, in arrival order.
    var requests: [Request] { state.value.requests }

    /// Stops accepting and closes every connection.
    func stop() {
        // Under the lock, once: the accept thread closes the listener when it leaves, and a
        // number closed once may already belong to another test's socket (a second
        // shutdown here, from deinit, once killed another server's listener in a full run).
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            // shutdown wakes the threads blocked in accept and recv; they close what they own.
            if !state.listenerClosed { shutdown(fd, Int32(SHUT_RDWR)) }
            for client in state.clients { shutdown(client, Int32(SHUT_RDWR)) }
        }
    }

    /// The raw bytes of an answer with a Content-Length, so the connection stays usable.
    static func answer(_ status: Int, _ reason: String, headers: [(String, String)] = [], body: Data = Data()) -> Data {
        var head = "HTTP/1.1 \(status) \(reason)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        return Data(head.utf8) + body
    }

    private func acceptLoop() {
        defer {
            state.withLock { state in
                state.listenerClosed = true
                close(fd)
            }
        }
        while true {
            let client = LoopbackSocket.accept(fd)
            if client < 0 { return }
            let index = state.withLock { state -> Int? in
                guard !state.stopped else { return nil }
                state.connections += 1
                state.clients.append(client)
                return state.connections - 1
            }
            guard let index else {
                close(client)
                return
            }
            let serving = Thread { [self] in serve(client, connection: index) }
            serving.name = "raw-http-connection"
            serving.start()
        }
    }

    private func serve(_ client: Int32, connection: Int) {
        defer {
            // Forgotten before it is closed, so stop() never shuts down a reused number.
            state.withLock { $0.clients.removeAll { $0 == client } }
            close(client)
        }
        var buffer = Data()
        while let request = Self.read(client, connection: connection, buffer: &buffer) {
            state.withLock { $0.requests.append(request) }
            let answer = responder(request)
            guard Self.write(client, answer) else { return }
            if request.header("connection")?.lowercased() == "close" { return }
        }
    }

    /// Reads one request (head, then Content-Length bytes of body); nil at the end of the
    /// connection or on a head that is not HTTP.
    private static func read(_ client: Int32, connection: Int, buffer: inout Data) -> Request? {
        let separator = Data("\r\n\r\n".utf8)
        while buffer.range(of: separator) == nil {
            guard receive(client, into: &buffer) else { return nil }
        }
        let headEnd = buffer.range(of: separator)!
        let lines = String(decoding: buffer[buffer.startIndex..<headEnd.lowerBound], as: UTF8.self)
            .components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((line[..<colon].lowercased(),
                            line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let length = Int(headers.first { $0.name == "content-length" }?.value ?? "0") ?? 0
        buffer.removeSubrange(buffer.startIndex..<headEnd.upperBound)
        while buffer.count < length {
            guard receive(client, into: &buffer) else { return nil }
        }
        let body = Data(buffer.prefix(length))
        buffer.removeFirst(length)
        return Request(connection: connection, method: String(requestLine[0]), target: String(requestLine[1]),
                       headers: headers, body: body)
    }

    private static func receive(_ client: Int32, into buffer: inout Data) -> Bool {
        SocketIO.receive(client, into: &buffer)
    }

    private static func write(_ client: Int32, _ data: Data) -> Bool { SocketIO.sendAll(client, data) }
}
