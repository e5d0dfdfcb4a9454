import Foundation
import Testing
import TestSupport
@testable import Transcoder

/// What `PeriodJoiner` says when its output refuses bytes: the output's failure,
/// `.cannotWrite` with its path, whether the refused bytes were the kept ones it copies or
/// the appended periods its muxer writes.
@Suite struct PeriodJoinerOutputTests {
    /// The read end of a FIFO that takes `wanted` bytes and then hangs up, so that every
    /// later write to the FIFO fails with `EPIPE`. Opened before the writer (without
    /// blocking), so the writer's `open` does not wait for it.
    final class HangingUpReader: @unchecked Sendable {
        let path: String
        let wanted: Int
        private let descriptor: Int32
        private let finished = DispatchSemaphore(value: 0)
        private let received = Locked<[UInt8]>([])

        init(fifo path: String, wanted: Int) throws {
            self.path = path
            self.wanted = wanted
            guard mkfifo(path, 0o600) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            Thread { [self] in
                read()
                finished.signal()
            }.start()
        }

        /// Reads until `wanted` bytes came or the writer closed, and closes the read end.
        private func read() {
            defer { close(descriptor) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            while received.value.count < wanted {
                var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, -1) >= 0 || errno == EINTR else { return }
                let count = min(buffer.count, wanted - received.value.count)
                let got = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, count) }
                if got == 0 { return }
                if got < 0 {
                    if errno == EAGAIN || errno == EINTR { continue }
                    return
                }
                received.withLock { $0 += buffer[..<got] }
            }
        }

        /// Waits for the reader to end and returns what it read. A writer that never came
        /// (the join failed before opening its output) is stood in for, so that it ends.
        func bytes() -> [UInt8] {
            let standIn = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if standIn >= 0 { close(standIn) }
            finished.wait()
            return received.value
        }
    }

    /// Runs `body` on a thread of its own with SIGPIPE blocked (a write to a pipe nobody
    /// reads raises it in the writing thread, which would end the test process), so the
    /// write fails with `EPIPE`; the signal left pending goes with the thread.
    static func withoutSIGPIPE<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let result = Locked<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            let value = body()
            result.withLock { $0 = value }
            done.signal()
        }.start()
        done.wait()
        return result.withLock { $0! }
    }

    @Test("An output that refuses the appended periods is the output's failure, .cannotWrite with its path, as when it refuses the kept bytes")
    func refusedAppendedPeriods() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-transcoder")
        // The second period is re-encoded, and far longer than a pipe holds (64 KiB).
        let (input, kept) = try PeriodJoinerTests.twoPeriods("a.ts", "b.ts", joined: "joined.ts", seconds: (1, 8),
                                                             in: directory)
        let output = directory.path("out.ts").path
        let reader = try HangingUpReader(fifo: output, wanted: Int(kept))
        let outcome = Self.withoutSIGPIPE { () -> TranscodeError? in
            do throws(TranscodeError) {
                _ = try PeriodJoiner.join(input: input.path, periodStarts: [kept], output: output)
                return nil
            } catch {
                return error
            }
        }
        let received = reader.bytes()
        #expect(received == Array(try Data(contentsOf: input).prefix(Int(kept))), "the kept bytes went out whole")
        #expect(outcome == .cannotWrite(path: output, reason: String(cString: strerror(EPIPE))))
        #expect(!FileManager.default.fileExists(atPath: output), "the output is removed")
    }
}
