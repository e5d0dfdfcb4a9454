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
}
