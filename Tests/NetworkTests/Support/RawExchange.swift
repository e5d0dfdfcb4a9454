import Foundation
import TestSupport

/// One request sent on a raw socket and everything that came back, byte for byte, with how
/// the stream ended: what a test of ``FaultProxy`` needs to see, which an HTTP client would
/// hide (it retries, reassembles, and reports a reset and a truncation alike).
struct RawExchange: Sendable {
    /// How the answer's stream ended.
    enum Ending: Sendable, Equatable {
        /// A FIN: the peer closed normally.
        case closed
        /// An RST: recv failed with ECONNRESET.
        case reset
        /// Nothing arrived for the whole wait (the socket is still open).
        case silent
    }

    /// Every byte received.
    var bytes = Data()
    /// How it ended.
    var ending = Ending.closed

    /// The head, up to the blank line.
    var head: String {
        guard let end = bytes.range(of: Data("\r\n\r\n".utf8)) else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
    }

    /// What followed the head.
    var body: Data {
        guard let end = bytes.range(of: Data("\r\n\r\n".utf8)) else { return Data() }
        return Data(bytes[end.upperBound...])
    }

    /// The status code of the status line.
    var status: Int? { head.split(separator: " ").dropFirst().first.flatMap { Int($0) } }

    /// Connects to 127.0.0.1:`port`, sends `request` (none when nil) and reads until the
    /// peer closes, resets, or is silent for `silence` seconds.
    static func run(port: Int, request: String?, silence: Double = 10) throws -> RawExchange {
        guard let fd = LoopbackSocket.connect(port: port) else { throw TestSupportError.serverDidNotStart }
        defer { close(fd) }
        var wait = timeval(tv_sec: Int(silence), tv_usec: Int((silence - Double(Int(silence))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        if let request { SocketIO.sendAll(fd, Data(request.utf8)) }
        var exchange = RawExchange()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count > 0 {
                exchange.bytes.append(contentsOf: chunk[0..<count])
                continue
            }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { exchange.ending = .silent }
            if count < 0, errno == ECONNRESET { exchange.ending = .reset }
            return exchange
        }
    }

    /// `GET path` as HTTP/1.1 with a Host header.
    static func get(_ path: String) -> String { "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" }
}
