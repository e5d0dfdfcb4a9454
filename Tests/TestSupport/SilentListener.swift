import Foundation

/// A socket on 127.0.0.1 that listens but never accepts or answers: the kernel completes
/// each connection into the backlog, the client sends its request and waits in vain.
/// Counting the backlog afterwards says how many connections (attempts) were made,
/// however slowly a loaded machine scheduled them — unlike a server's own record, which
/// misses a request the client gave up on before the server read it.
public final class SilentListener: Sendable {
    private let fd: Int32
    /// The port it listens on.
    public let port: Int

    /// Binds an ephemeral port and listens.
    public init() throws {
        let (fd, port) = try LoopbackSocket.listen(backlog: 16)
        self.fd = fd
        self.port = port
        // Accepting (only to count) must never block.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(fd) }

    /// `http://127.0.0.1:<port>`.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Takes every connection waiting in the backlog and returns how many there were.
    public func drainConnections() -> Int {
        var count = 0
        while true {
            let client = accept(fd, nil, nil)
            guard client >= 0 else { return count }
            close(client)
            count += 1
        }
    }
}
