import Foundation

/// TCP sockets on 127.0.0.1 for the raw-socket test servers (``SilentListener``,
/// ``FaultyMediaServer``, ``FaultProxy`` and the HTTP tests' own), which each decide what
/// to do with them, and for the loopback client (``LoopbackExchange``). Every descriptor is
/// close-on-exec: tests start the real mhz, and a listener inherited by that child would
/// keep accepting after the test closed its copy.
public enum LoopbackSocket {
    /// Binds 127.0.0.1 on a port the kernel picks and listens with `backlog`.
    /// - Returns: the descriptor (the caller owns and closes it) and the port.
    /// - Throws: `TestSupportError.serverDidNotStart` when the socket cannot be set up.
    public static func listen(backlog: Int32) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = loopback(port: 0)
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

    /// Takes the next connection of `listener`, close-on-exec; retries when a signal
    /// interrupted the wait. Returns -1 once the listener is shut down or closed.
    public static func accept(_ listener: Int32) -> Int32 {
        while true {
            let connection = systemAccept4(listener, nil, nil, Int32(SOCK_CLOEXEC.rawValue))
            if connection < 0, errno == EINTR { continue }
            return connection
        }
    }

    /// A blocking, close-on-exec connection to 127.0.0.1:`port`, or nil when it is refused.
    /// `receiveBuffer` sets `SO_RCVBUF` before connecting (the window it announces follows
    /// it), for a client whose peer's writes must back up soon.
    public static func connect(port: Int, receiveBuffer: Int32? = nil) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// ``connect(port:receiveBuffer:)`` for callers that throw.
    /// - Throws: `TestSupportError.socketFailed` naming the port and errno's words when
    ///   the connection cannot be made.
    public static func connectOrFail(port: Int, receiveBuffer: Int32? = nil) throws -> Int32 {
        guard let fd = connect(port: port, receiveBuffer: receiveBuffer) else {
            throw TestSupportError.socketFailed("connect to port \(port): \(String(cString: strerror(errno)))")
        }
        return fd
    }

    /// Closes `fd` with an RST instead of a FIN (SO_LINGER with a zero timeout): the peer's
    /// next read fails with ECONNRESET, as when a server or middlebox crashes mid-answer.
    public static func closeWithReset(_ fd: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(fd)
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
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

/// glibc's accept4(2), which Glibc's module map hides (it is declared under _GNU_SOURCE
/// only): accept and close-on-exec in one step, with no window in which a concurrently
/// spawned mhz could inherit the connection, as it could between accept and fcntl.
@_silgen_name("accept4")
private func systemAccept4(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?,
                           _ length: UnsafeMutablePointer<socklen_t>?, _ flags: Int32) -> Int32
