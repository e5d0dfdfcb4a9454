import Foundation
import Radio

/// Lines read from a descriptor with blocking reads, each within a time limit and a length
/// limit: the control socket's two sides and headless stdin. A line longer than the limit
/// is reported once, as ``Line/tooLong(limit:)``, and skipped to its end without being held,
/// so a peer that never sends a newline (`mhz --headless < /dev/zero`) costs no memory.
public final class LineReader {
    /// What ``next()`` read.
    public enum Line: Sendable, Equatable {
        /// A line without its newline (and without a `\r` before it).
        case text(String)
        /// A line over the reader's limit of bytes: its bytes were dropped up to its newline.
        case tooLong(limit: Int)

        /// The text of a line that fit; nil for one that did not.
        public var text: String? {
            if case .text(let text) = self { text } else { nil }
        }

        /// The line as a command line, as headless stdin and the control socket read it:
        /// its text, nil when it is blank (nothing to answer), and
        /// ``CommandParseError/tooLong(limit:)`` for a line over the limit.
        public func commandText() throws(CommandParseError) -> String? {
            switch self {
            case .text(let text): text.trimmingCharacters(in: .whitespaces).isEmpty ? nil : text
            case .tooLong(let limit): throw .tooLong(limit: limit)
            }
        }
    }

    /// The longest command line mhz takes, from headless stdin or a control-socket client.
    public static let commandLineBytes = 4096

    private let fd: Int32
    private let maxLineBytes: Int
    private var buffer: [UInt8] = []
    /// What one read(2) brings, kept from call to call rather than made for every line.
    private var chunk = [UInt8](repeating: 0, count: 4096)
    /// The line in the buffer was reported too long: what comes up to its newline is dropped.
    private var skipping = false
    /// Seconds a line may take (nil: wait for ever); an answer comes within the control
    /// socket's own 10 s patience.
    public var timeout: Int32?

    /// A reader of `fd` whose lines may take `timeout` seconds and `maxLineBytes` bytes.
    public init(fd: Int32, timeout: Int32? = 15, maxLineBytes: Int) {
        self.fd = fd
        self.timeout = timeout
        self.maxLineBytes = maxLineBytes
    }

    /// The next line (the last may end without a newline); nil at end of input, on a read
    /// error or a timeout.
    public func next() -> Line? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let length = newline - buffer.startIndex
                let wasSkipping = skipping
                skipping = false
                defer { buffer.removeSubrange(...newline) }
                if wasSkipping { continue }
                if length > maxLineBytes { return .tooLong(limit: maxLineBytes) }
                return text(upTo: newline)
            }
            if skipping {
                buffer.removeAll(keepingCapacity: true)
            } else if buffer.count > maxLineBytes {
                buffer.removeAll(keepingCapacity: true)
                skipping = true
                return .tooLong(limit: maxLineBytes)
            }
            if let timeout {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, timeout * 1000) > 0 else { return nil }
            }
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count == 0, !skipping, !buffer.isEmpty {
                // The input ended inside a line: that line, as readLine(3)'s callers expect
                // (`printf quit | mhz --headless`); the next call sees the end.
                defer { buffer.removeAll() }
                return text(upTo: buffer.endIndex)
            }
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// The buffer's line that ends at `end` (a newline, or the end of input), without a
    /// `\r` before it.
    private func text(upTo end: Int) -> Line {
        var end = end
        if end > buffer.startIndex, buffer[end - 1] == 0x0D { end -= 1 }
        return .text(String(decoding: buffer[..<end], as: UTF8.self))
    }
}
