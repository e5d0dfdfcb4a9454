import Foundation
import TestSupport

/// Requests sent byte for byte through the tests' loopback client
/// (``LoopbackExchange``): URLSession and libcurl normalise `..` segments and set `Host`
/// themselves; traversal and Host tests need the request exactly as written.
///
/// The blocking socket calls run on threads of their own (``offPool(_:)``): blocking a
/// thread of Swift's small cooperative pool (2 threads on 2 cores) would starve the
/// station's own handlers, which run on that pool too.
enum RawHTTP {
    /// Sends `<method> <target>` (GET unless told) with the given Host header and
    /// `Connection: close`; status, headers and body. An answer silent for `silence`
    /// seconds is given up.
    static func get(port: Int, target: String, host: String = "127.0.0.1", method: String = "GET",
                    silence: Double = 10) async throws -> Fetched {
        let answer = try await exchange(port: port, "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n",
                                        silence: silence)
        guard let status = answer.status else { throw FetchError.socket("no status line: \(answer.head)") }
        var headers: [String: String] = [:]
        for (name, value) in answer.headers { headers[name] = value }
        return Fetched(status: status, headers: headers, body: answer.body)
    }

    /// Sends `request` exactly as given (request line, headers, body: the caller writes it
    /// whole, `Connection: close` included) and reads the answer until the server closes
    /// (or is silent for `silence` seconds). Without a whole head, the error says how the
    /// answer ended (closed, reset, silent) and after how many bytes.
    static func exchange(port: Int, _ request: String, silence: Double = 10) async throws -> LoopbackExchange {
        let answer = try await offPool { try LoopbackExchange.run(port: port, request: request, silence: silence) }
        guard answer.bytes.range(of: Data("\r\n\r\n".utf8)) != nil else {
            throw FetchError.socket("no header end: \(answer.ending) after \(answer.bytes.count) bytes")
        }
        return answer
    }

    /// Opens a connection, sends `GET <target>` and never reads the answer: a stalled
    /// client (a paused player holding a media stream). Returns the socket; close it.
    static func sendWithoutReading(port: Int, target: String) throws -> Int32 {
        // A tiny receive buffer, so the server's writes back up quickly.
        let socket = try LoopbackSocket.connectOrFail(port: port, receiveBuffer: 4096)
        guard SocketIO.sendAll(socket, Data(LoopbackExchange.get(target).utf8)) else {
            close(socket)
            throw FetchError.socket("send")
        }
        return socket
    }

    /// Whether something accepts connections on the port.
    static func isListening(port: Int) -> Bool {
        guard let socket = LoopbackSocket.connect(port: port) else { return false }
        close(socket)
        return true
    }

    /// Sends `GET <target>` and returns as soon as the first bytes of the body have
    /// arrived (the head and those bytes), calling `onFirstBytes` at that moment, then
    /// closes the connection: for answers that stream.
    static func firstBodyBytes(port: Int, target: String, onFirstBytes: @escaping @Sendable () -> Void) async throws -> Data {
        try await offPool {
            try LoopbackExchange.run(port: port, request: LoopbackExchange.get(target, close: true)) { answer in
                guard answer.hasBody else { return false }
                onFirstBytes()
                return true
            }.bytes
        }
    }
}
