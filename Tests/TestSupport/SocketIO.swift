import Foundation

/// Blocking reads and writes on a connected socket for the raw-socket test servers, which
/// run one plain thread per connection (never libdispatch's readability handlers, which
/// crashed test processes: swift-corelibs-libdispatch #949).
public enum SocketIO {
    /// Appends what one `recv` returns to `buffer`; false at the end of the stream or on
    /// an error (a reset, or a shutdown by the owner's `stop()`).
    public static func receive(_ fd: Int32, into buffer: inout Data, most: Int = 65_536) -> Bool {
        var chunk = [UInt8](repeating: 0, count: most)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
    }

    /// Sends all of `data`; false when the peer is gone. MSG_NOSIGNAL: a peer that hung up
    /// must not kill the test process with SIGPIPE.
    @discardableResult
    public static func sendAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0, errno == EINTR { continue }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    /// Reads until `buffer` holds a whole HTTP head (up to the blank line), at most
    /// `limit` bytes; returns the head with its blank line and leaves what followed it
    /// (the start of a body) in `buffer`. nil when the stream ends first.
    public static func readHead(_ fd: Int32, buffer: inout Data, limit: Int = 65_536) -> Data? {
        let separator = Data("\r\n\r\n".utf8)
        while buffer.range(of: separator) == nil {
            guard buffer.count < limit, receive(fd, into: &buffer) else { return nil }
        }
        let end = buffer.range(of: separator)!.upperBound
        let head = Data(buffer[buffer.startIndex..<end])
        buffer.removeSubrange(buffer.startIndex..<end)
        return head
    }
}
