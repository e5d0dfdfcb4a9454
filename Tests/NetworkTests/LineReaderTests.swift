import Foundation
import TestSupport
import Testing
@testable import Companions

/// ``LineReader`` over a pipe: lines as written, a line over the limit reported once and
/// skipped to its newline, and a stream with no newline at all reported once.
struct LineReaderTests {
    /// A pipe whose write end gets `bytes` and is closed (by a thread: more than a pipe
    /// holds may be written), and a reader of its read end.
    private func reader(of bytes: [UInt8], limit: Int) throws -> (LineReader, Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw TestSupportError.socketFailed("pipe: \(errno)") }
        let write = ends[1]
        Thread {
            bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                var sent = 0
                while sent < buffer.count {
                    let n = Glibc.write(write, base + sent, buffer.count - sent)
                    if n <= 0 { break }
                    sent += n
                }
            }
            close(write)
        }.start()
        return (LineReader(fd: ends[0], timeout: 10, maxLineBytes: limit), ends[0])
    }

    @Test func linesComeWithoutTheirNewlineOrCarriageReturn() throws {
        let (lines, fd) = try reader(of: Array("skip\r\nvolume 50\n\nlast without newline".utf8), limit: 64)
        defer { close(fd) }
        #expect(lines.next() == .text("skip"))
        #expect(lines.next() == .text("volume 50"))
        #expect(lines.next() == .text(""))
        // Input that ends inside a line ends with that line, as readLine's does.
        #expect(lines.next() == .text("last without newline"))
        #expect(lines.next() == nil)
    }

    @Test func aLineOverTheLimitIsReportedOnceAndSkippedToItsNewline() throws {
        let long = [UInt8](repeating: 0x78, count: 100_000)
        let exact = [UInt8](repeating: 0x79, count: 64)
        let (lines, fd) = try reader(of: Array("one\n".utf8) + long + [0x0A] + exact + Array("\ntwo\n".utf8), limit: 64)
        defer { close(fd) }
        #expect(lines.next() == .text("one"))
        #expect(lines.next() == .tooLong(limit: 64))
        #expect(lines.next() == .text(String(repeating: "y", count: 64)), "a line of exactly the limit is taken")
        #expect(lines.next() == .text("two"))
        #expect(lines.next() == nil)
    }

    @Test func aStreamWithoutNewlinesIsReportedOnce() throws {
        // What `mhz --headless < /dev/zero` reads: 8 MiB of NULs, no newline.
        let (lines, fd) = try reader(of: [UInt8](repeating: 0, count: 8 << 20), limit: 4096)
        defer { close(fd) }
        #expect(lines.next() == .tooLong(limit: 4096))
        #expect(lines.next() == nil)
        #expect(LineReader.Line.tooLong(limit: 4096).text == nil)
    }
}
