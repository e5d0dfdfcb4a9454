import Foundation

/// Lines read from a descriptor with blocking reads, each within a time limit: `mhz ctl`'s
/// side of the control socket.
public final class LineReader {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Seconds a line may take (nil: wait for ever); an answer comes within the control
    /// socket's own 10 s patience.
    public var timeout: Int32? = 15

    /// A reader of `fd`.
    public init(fd: Int32) { self.fd = fd }

    /// The next line without its newline; nil at end of input, on an error or a timeout.
    public func next() -> String? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            if let timeout {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, timeout * 1000) > 0 else { return nil }
            }
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[..<count])
        }
    }
}
