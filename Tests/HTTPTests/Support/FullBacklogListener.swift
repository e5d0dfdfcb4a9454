import Foundation
import TestSupport

/// A socket on 127.0.0.1 whose accept queue is full, so a new connection never completes:
/// Linux drops the SYN of a connection a full listener cannot queue
/// (`tcp_conn_request`: "if (sk_acceptq_is_full(sk)) … goto drop"), and the client waits
/// in SYN-SENT until its connect timeout. That is the connect phase hanging on its own,
/// as against ``SilentListener``, which connects at once and then never answers.
final class FullBacklogListener: Sendable {
    private let fd: Int32
    private let fillers: [Int32]
    /// The port it listens on.
    let port: Int

    /// Listens with a backlog of 0 (room for one connection on Linux) and fills it with
    /// connections of its own that are never accepted.
    init() throws {
        let (fd, port) = try LoopbackSocket.listen(backlog: 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        // More than the queue holds, without waiting for any: the surplus stays in
        // SYN-SENT, which is harmless, and the queue is certainly full.
        var fillers: [Int32] = []
        for _ in 0..<4 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            _ = fcntl(filler, F_SETFL, fcntl(filler, F_GETFL) | O_NONBLOCK)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, length) }
            }
            fillers.append(filler)
        }
        // The first one is in the queue once its handshake is done (writable); loopback
        // does that at once, a loaded machine a little later.
        var ready = pollfd(fd: fillers[0], events: Int16(POLLOUT), revents: 0)
        _ = poll(&ready, 1, 10_000)
        self.fd = fd
        self.fillers = fillers
        self.port = port
    }

    deinit {
        for filler in fillers { close(filler) }
        close(fd)
    }

    /// `http://127.0.0.1:<port>`.
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }
}
