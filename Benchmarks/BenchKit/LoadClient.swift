import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP/1.1 client for load: one keep-alive connection per thread to
/// 127.0.0.1, blocking sockets, requests one after another, the latency of each recorded.
/// Threads rather than tasks, so the load generator never competes with the station for
/// Swift's cooperative pool (the station runs in the same process).
public final class LoadClient {
    private let port: Int
    private var socket: Int32 = -1
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var pending: [UInt8] = []

    /// Creates a client for a port on 127.0.0.1 (connects on first use).
    public init(port: Int) {
        self.port = port
    }

    deinit {
        if socket >= 0 { close(socket) }
    }

    /// Sends `GET target` and returns the body, reconnecting if the server closed the
    /// connection.
    public func get(_ target: String) throws -> [UInt8] {
        try exchange("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
    }

    /// Sends `POST target` with a form body and returns the response body.
    public func post(_ target: String, form: String) throws -> [UInt8] {
        try exchange("POST \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n\r\n\(form)")
    }

    private func exchange(_ text: String, retried: Bool = false) throws -> [UInt8] {
        if socket < 0 { try connect() }
        let request = Array(text.utf8)
        guard send(socket, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
            close(socket)
            socket = -1
            if retried { throw BenchError.socket("send") }
            return try exchange(text, retried: true)
        }
        return try readResponse()
    }

    private func connect() throws {
        guard let connected = LoopbackSocket.connect(port: port) else { throw BenchError.socket("connect") }
        socket = connected
        var one: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        pending = []
    }

    /// Reads one response: headers to the blank line, then Content-Length bytes.
    private func readResponse() throws -> [UInt8] {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headerEnd: Int?
        while headerEnd == nil {
            headerEnd = Self.find(separator, in: pending)
            if headerEnd == nil { try fill() }
        }
        // Parsed with Swift's own string operations: Foundation's `trimmingCharacters` and
        // substring bridging cost the client more CPU than many answers cost the station,
        // on the same two cores.
        let head = String(decoding: pending[..<headerEnd!], as: UTF8.self).lowercased()
        guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
              let length = Int(String(line.dropFirst("content-length:".count).filter { $0 != " " && $0 != "\t" }))
        else { throw BenchError.protocolError(head) }
        let bodyStart = headerEnd! + 4
        while pending.count < bodyStart + length { try fill() }
        let body = Array(pending[bodyStart..<(bodyStart + length)])
        pending.removeFirst(bodyStart + length)
        return body
    }

    private func fill() throws {
        let count = recv(socket, &buffer, buffer.count, 0)
        guard count > 0 else { throw BenchError.socket("recv") }
        pending.append(contentsOf: buffer[0..<count])
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
        }
        return nil
    }
}
