import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Sends a request byte for byte over a plain socket. URLSession (libcurl) normalizes
/// `..` segments and sets `Host` itself; traversal and Host tests need the request exactly
/// as written.
enum RawHTTP {
    /// Sends `<method> <target>` (GET unless told) with the given Host header and returns
    /// status and body.
    ///
    /// The blocking socket calls run on a dispatch queue: blocking a thread of Swift's small
    /// cooperative pool (2 threads on 2 cores) would starve the station's own handlers,
    /// which run on that pool too.
    static func get(port: Int, target: String, host: String = "127.0.0.1", method: String = "GET") async throws -> Fetched {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try getBlocking(port: port, target: target, host: host, method: method) })
            }
        }
    }

    private static func getBlocking(port: Int, target: String, host: String, method: String) throws -> Fetched {
        let request = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n"
        let answer = try exchange(port: port, bytes: Array(request.utf8))
        guard let split = answer.range(of: Data("\r\n\r\n".utf8)) else { throw FetchError.socket("no header end") }
        let head = String(decoding: answer[..<split.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw FetchError.socket(head) }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Fetched(status: status, headers: headers, body: Data(answer[split.upperBound...]))
    }

    /// An answer with every header line kept in order (several `Set-Cookie` lines).
    struct Answer: Sendable {
        /// The status code.
        var status: Int
        /// Header lines as sent, names lowercased.
        var headers: [(name: String, value: String)]
        /// The body.
        var body: Data

        /// The values of every header called `name`.
        func values(_ name: String) -> [String] { headers.filter { $0.name == name }.map(\.value) }
    }

    /// Sends `request` exactly as given (request line, headers, body: the caller writes it
    /// whole, `Connection: close` included) and reads the answer until the server closes.
    static func exchange(port: Int, _ request: String) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    let answer = try exchange(port: port, bytes: Array(request.utf8))
                    guard let split = answer.range(of: Data("\r\n\r\n".utf8)) else { throw FetchError.socket("no header end") }
                    var lines = String(decoding: answer[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                    let statusLine = lines.removeFirst().split(separator: " ")
                    guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw FetchError.socket("no status") }
                    let headers = lines.compactMap { line -> (name: String, value: String)? in
                        guard let colon = line.firstIndex(of: ":") else { return nil }
                        return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                    }
                    return Answer(status: status, headers: headers, body: Data(answer[split.upperBound...]))
                })
            }
        }
    }

    /// Opens a connection, sends `GET <target>` and never reads the answer: a stalled
    /// client (a paused player holding a media stream). Returns the socket; close it.
    static func sendWithoutReading(port: Int, target: String) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw FetchError.socket("socket") }
        // A tiny receive buffer, so the server's writes back up quickly.
        var size: Int32 = 4096
        setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard connected == 0, send(socket, request, request.count, 0) == request.count else {
            close(socket)
            throw FetchError.socket("connect/send")
        }
        return socket
    }

    /// Whether something accepts connections on the port.
    static func isListening(port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// Sends `GET <target>` and returns as soon as the first bytes of the body have
    /// arrived (the head and those bytes), calling `onFirstBytes` at that moment, then
    /// closes the connection: for answers that stream.
    static func firstBodyBytes(port: Int, target: String, onFirstBytes: @escaping @Sendable () -> Void) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
                    return try exchange(port: port, bytes: request) { answer in
                        guard let split = answer.range(of: Data("\r\n\r\n".utf8)), answer.count > split.upperBound
                        else { return false }
                        onFirstBytes()
                        return true
                    }
                })
            }
        }
    }

    private static func exchange(port: Int, bytes: [UInt8], until enough: (Data) -> Bool = { _ in false }) throws -> Data {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw FetchError.socket("socket") }
        defer { close(socket) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw FetchError.socket("connect") }
        guard send(socket, bytes, bytes.count, 0) == bytes.count else { throw FetchError.socket("send") }
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            answer.append(contentsOf: buffer[0..<count])
            if enough(answer) { break }
        }
        return answer
    }
}
