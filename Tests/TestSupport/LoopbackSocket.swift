import Foundation

/// A listening TCP socket on an ephemeral 127.0.0.1 port, for the raw-socket test servers
/// (``SilentListener`` and the HTTP tests' own), which each decide what to do with it.
public enum LoopbackSocket {
    /// Binds 127.0.0.1 on a port the kernel picks and listens with `backlog`.
    /// - Returns: the descriptor (the caller owns and closes it) and the port.
    /// - Throws: `TestSupportError.serverDidNotStart` when the socket cannot be set up.
    public static func listen(backlog: Int32) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard fd >= 0, bound == 0, Glibc.listen(fd, backlog) == 0 else {
            if fd >= 0 { close(fd) }
            throw TestSupportError.serverDidNotStart
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Connects a blocking TCP socket to 127.0.0.1:`port`.
    /// - Returns: the descriptor; the caller owns and closes it.
    /// - Throws: `TestSupportError.socketFailed` with errno's words when the socket cannot
    ///   be made or the connection is refused.
    public static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError.socketFailed("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw TestSupportError.socketFailed("connect to port \(port): \(reason)")
        }
        return fd
    }

    /// Whether the peer has closed `fd` (an orderly end or a reset), without waiting and
    /// without taking any byte it sent: a zero-timeout poll (`POLLRDHUP`: the peer's end
    /// of the stream, even behind bytes not read yet), then a peeking read.
    public static func isClosedByPeer(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN) | peerHungUp, revents: 0)
        guard poll(&entry, 1, 0) == 1 else { return false }
        if entry.revents & (Int16(POLLHUP | POLLERR) | peerHungUp) != 0 { return true }
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// `POLLRDHUP` (Linux's poll(2): "stream socket peer closed connection"), which the
    /// Glibc module does not define: it is behind `_GNU_SOURCE`.
    private static let peerHungUp: Int16 = 0x2000
}
