import Foundation

/// Many TCP connections to a server on 127.0.0.1 that send nothing, ever: the cheapest way
/// to hold a server's sockets (and, with no timeout, its file descriptors for good).
///
/// Every socket is the caller's to release with ``close()``; the deinitializer closes what
/// is left, so a test that fails half-way leaks nothing.
public final class IdleConnections: Sendable {
    private let sockets: Locked<[Int32]>

    /// Opens `count` connections to `port`, one after another.
    /// - Throws: `TestSupportError.socketFailed` for the first one that cannot be made;
    ///   those opened before it are closed.
    public init(port: Int, count: Int) throws {
        var opened: [Int32] = []
        opened.reserveCapacity(count)
        do {
            for _ in 0..<count { opened.append(try LoopbackSocket.connectOrFail(port: port)) }
        } catch {
            for fd in opened { Glibc.close(fd) }
            throw error
        }
        sockets = Locked(opened)
    }

    deinit { close() }

    /// How many connections are open on this side.
    public var count: Int { sockets.value.count }

    /// How many of them the server has closed so far.
    public var closedByPeer: Int {
        sockets.value.filter(LoopbackSocket.isClosedByPeer).count
    }

    /// Closes every connection (once; later calls do nothing).
    public func close() {
        let open = sockets.withLock { open -> [Int32] in
            defer { open = [] }
            return open
        }
        for fd in open { Glibc.close(fd) }
    }
}
