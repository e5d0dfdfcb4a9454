import Foundation

/// Why the control socket could not be listened on or reached.
public enum ControlError: Error, Equatable {
    /// Another mhz answers on the socket: two players would share one database and outbox.
    case alreadyRunning(socket: String)
    /// The socket (or its directory) could not be made: the path and `errno`.
    case cannotListen(socket: String, errno: Int32)
    /// No mhz listens there (no file, or a socket left by a killed mhz).
    case notRunning(socket: String)
    /// The socket exists but connecting failed otherwise (permissions): the path and `errno`.
    case cannotConnect(socket: String, errno: Int32)
    /// mhz closed the connection or stopped answering.
    case noAnswer(socket: String)
}

/// The few calls of unix(7) stream sockets mhz needs, on raw descriptors: the control socket
/// is read and written with blocking calls on threads of its own (Foundation's
/// `readabilityHandler` is not used: its dispatch sources crash processes here).
public enum UnixSocket {
    /// A connected descriptor to `path`, or the `errno` of `connect(2)`.
    public static func connect(to path: String) -> Result<Int32, ControlError> {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(.cannotConnect(socket: path, errno: errno)) }
        var address = sockaddr_un()
        guard fill(&address, path: path) else {
            close(fd)
            return .failure(.cannotConnect(socket: path, errno: ENAMETOOLONG))
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard status == 0 else {
            let code = errno
            close(fd)
            // ENOENT: no file; ECONNREFUSED: a socket nobody listens on (a killed mhz's).
            if code == ENOENT || code == ECONNREFUSED { return .failure(.notRunning(socket: path)) }
            return .failure(.cannotConnect(socket: path, errno: code))
        }
        return .success(fd)
    }

    /// A listening descriptor bound to `path`, mode 0600 in a directory of mode 0700 (made
    /// when missing). A socket file left by an mhz that was killed is replaced; one that
    /// answers means another mhz plays from the same data directory, and is refused.
    static func listen(at path: String) throws(ControlError) -> Int32 {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotListen(socket: path, errno: EACCES)
        }
        switch connect(to: path) {
        case .success(let fd):
            close(fd)
            throw .alreadyRunning(socket: path)
        case .failure(.notRunning):
            unlink(path)
        case .failure:
            // Something else is in the way (not a socket, no permission): bind says what.
            break
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotListen(socket: path, errno: errno) }
        var address = sockaddr_un()
        guard fill(&address, path: path) else {
            close(fd)
            throw .cannotListen(socket: path, errno: ENAMETOOLONG)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        // The directory is private already; the socket's own mode closes it for a directory
        // shared by mistake (the data-directory fallback).
        guard bound == 0, chmod(path, 0o600) == 0, Glibc.listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            throw .cannotListen(socket: path, errno: code)
        }
        return fd
    }

    /// Writes all of `bytes`, or returns false once the peer is gone. `MSG_NOSIGNAL`: a
    /// client that hung up must not end mhz with SIGPIPE.
    public static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    private static func fill(_ address: inout sockaddr_un, path: String) -> Bool {
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return true
    }
}
