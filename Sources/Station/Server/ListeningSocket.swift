import Foundation
import NIOCore

/// The station's listening TCP socket, a descriptor the station holds itself rather than
/// one NIO opens and closes: bound here from a host and port, or adopted from whoever
/// started the process (systemd's socket activation, or the station's own re-exec, which
/// keeps it open across `execve`).
///
/// The server is handed a duplicate (``duplicate()``). When it stops accepting, NIO closes
/// that duplicate and the socket goes on listening through ``descriptor``: a client that
/// connects meanwhile waits in the kernel's backlog for whoever serves the socket next,
/// rather than being refused. Only ``release()`` ends the socket.
struct ListeningSocket: Sendable {
    /// The descriptor the station keeps.
    let descriptor: Int32

    /// How many connections the kernel queues for the socket while nobody accepts them
    /// (capped by `net.core.somaxconn`): a restart's worth of players' reloads and more.
    static let backlog: Int32 = 4096

    /// Binds a new socket to `host` (a name or address) and `port` (0: one the kernel
    /// chooses) and listens on it; the descriptor is close-on-exec.
    ///
    /// - Throws: ``StationError/bindFailed(address:reason:)`` naming `host:port` with the
    ///   system's reason (`Address already in use`).
    static func open(host: String, port: Int) throws(StationError) -> ListeningSocket {
        let name = "\(host):\(port)"
        let address: SocketAddress
        do {
            address = try SocketAddress.makeAddressResolvingHost(host, port: port)
        } catch {
            throw .bindFailed(address: name, reason: Station.reason(error))
        }
        let descriptor = socket(Int32(address.protocol.rawValue), Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .bindFailed(address: name, reason: Self.lastError()) }
        var one: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = address.withSockAddr { pointer, size in bind(descriptor, pointer, socklen_t(size)) }
        guard bound == 0, listen(descriptor, backlog) == 0 else {
            let reason = Self.lastError()
            close(descriptor)
            throw .bindFailed(address: name, reason: reason)
        }
        return ListeningSocket(descriptor: descriptor)
    }

    /// Takes `descriptor`, inherited from whoever started the process, as the station's
    /// socket once it is checked to be a listening TCP socket; made close-on-exec, as
    /// `sd_listen_fds(3)` does, so nothing the station starts inherits it.
    ///
    /// - Throws: ``StationError/bindFailed(address:reason:)`` naming the descriptor when it
    ///   is not a listening stream socket of IPv4 or IPv6.
    static func adopt(_ descriptor: Int32) throws(StationError) -> ListeningSocket {
        let name = "descriptor \(descriptor)"
        var type: Int32 = 0
        var listening: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_TYPE, &type, &length) == 0 else {
            throw .bindFailed(address: name, reason: lastError())
        }
        length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0 else {
            throw .bindFailed(address: name, reason: lastError())
        }
        let socket = ListeningSocket(descriptor: descriptor)
        guard type == Int32(SOCK_STREAM.rawValue), listening == 1, socket.port != nil else {
            throw .bindFailed(address: name, reason: "not a listening TCP socket")
        }
        _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
        return socket
    }

    /// The port the socket is bound to; `nil` for a socket that is not IPv4 or IPv6.
    var port: Int? { address?.port }

    /// The address the socket is bound to (`0.0.0.0`, `::1`, …) and its port; `nil` for a
    /// socket that is not IPv4 or IPv6.
    var address: (host: String, port: Int)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                    var ip = inet.pointee.sin_addr
                    guard inet_ntop(AF_INET, &ip, &text, socklen_t(text.count)) != nil else { return nil }
                    return (Self.string(text), Int(UInt16(bigEndian: inet.pointee.sin_port)))
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet in
                    var ip = inet.pointee.sin6_addr
                    guard inet_ntop(AF_INET6, &ip, &text, socklen_t(text.count)) != nil else { return nil }
                    return (Self.string(text), Int(UInt16(bigEndian: inet.pointee.sin6_port)))
                }
            }
        default:
            return nil
        }
    }

    /// A new descriptor of the same socket (close-on-exec), for the server to own and close.
    ///
    /// - Throws: ``StationError/bindFailed(address:reason:)`` when the process is out of
    ///   descriptors.
    func duplicate() throws(StationError) -> Int32 {
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
        guard copy >= 0 else { throw .bindFailed(address: "descriptor \(descriptor)", reason: Self.lastError()) }
        return copy
    }

    /// Ends the socket (once no duplicate is open either): new connections are refused.
    func release() {
        _ = close(descriptor)
    }

    /// The text of a NUL-terminated C buffer, up to its first NUL.
    private static func string(_ text: [CChar]) -> String {
        String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
