import Foundation

/// Bytes sent on a raw socket to 127.0.0.1 and everything that came back, byte for byte,
/// with how the stream ended: the tests' one loopback client, for what an HTTP client
/// would hide or change (it normalises `..` and sets `Host` itself, retries, reassembles,
/// and reports a reset and a truncation alike).
public struct LoopbackExchange: Sendable {
    /// How the answer's stream ended.
    public enum Ending: Sendable, Equatable {
        /// A FIN: the peer closed normally.
        case closed
        /// An RST: recv failed with ECONNRESET.
        case reset
        /// Nothing arrived for the whole wait (the socket is still open).
        case silent
        /// The caller's `until` had enough; the test closed the connection.
        case enough
    }

    /// Every byte received.
    public var bytes = Data()
    /// How it ended.
    public var ending = Ending.closed

    /// Nothing received yet.
    public init() {}

    /// The head, up to the blank line (all of it when there is no blank line).
    public var head: String {
        guard let end = bytes.range(of: Self.blankLine) else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
    }

    /// What followed the head.
    public var body: Data {
        guard let end = bytes.range(of: Self.blankLine) else { return Data() }
        return Data(bytes[end.upperBound...])
    }

    /// Whether a whole head and at least one byte of body arrived.
    public var hasBody: Bool {
        guard let end = bytes.range(of: Self.blankLine) else { return false }
        return bytes.count > end.upperBound
    }

    /// The status code of the status line.
    public var status: Int? { head.split(separator: " ").dropFirst().first.flatMap { Int($0) } }

    /// The header lines in order, names lowercased, values trimmed (several `Set-Cookie`
    /// lines stay several).
    public var headers: [(name: String, value: String)] {
        head.components(separatedBy: "\r\n").dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
    }

    /// The values of every header called `name` (lowercase), in order.
    public func values(_ name: String) -> [String] { headers.filter { $0.name == name }.map(\.value) }

    private static let blankLine = Data("\r\n\r\n".utf8)

    /// Connects to 127.0.0.1:`port`, sends `request` (nothing when nil) and reads until the
    /// peer closes or resets, nothing comes for `silence` seconds, or `until` says what
    /// arrived is enough. Blocking: call it off the cooperative pool (``offPool(_:)``).
    /// - Throws: `TestSupportError.socketFailed` when nothing accepts the connection.
    public static func run(port: Int, request: String?, silence: Double = 10,
                           until enough: (LoopbackExchange) -> Bool = { _ in false }) throws -> LoopbackExchange {
        let fd = try LoopbackSocket.connectOrFail(port: port)
        defer { close(fd) }
        if let request { SocketIO.sendAll(fd, Data(request.utf8)) }
        return receive(fd, silence: silence, until: enough)
    }

    /// Reads what comes on the connected `fd` (which stays the caller's) until the peer
    /// closes or resets, nothing comes for `silence` seconds, or `until` says it is enough.
    /// Blocking.
    public static func receive(_ fd: Int32, silence: Double = 10,
                               until enough: (LoopbackExchange) -> Bool = { _ in false }) -> LoopbackExchange {
        var wait = timeval(tv_sec: Int(silence), tv_usec: Int((silence - Double(Int(silence))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var exchange = LoopbackExchange()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count > 0 {
                exchange.bytes.append(contentsOf: chunk[0..<count])
                if enough(exchange) {
                    exchange.ending = .enough
                    return exchange
                }
                continue
            }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { exchange.ending = .silent }
            if count < 0, errno == ECONNRESET { exchange.ending = .reset }
            return exchange
        }
    }

    /// `GET path` as HTTP/1.1 with a Host header (the connection kept alive unless `close`).
    public static func get(_ path: String, host: String = "127.0.0.1", close: Bool = false) -> String {
        "GET \(path) HTTP/1.1\r\nHost: \(host)\r\n" + (close ? "Connection: close\r\n" : "") + "\r\n"
    }
}
