import Foundation

/// A program run to its end by a test (ffmpeg, ffprobe, gzip, groff, openssl, chafa,
/// a script), with what it wrote: the one process runner of the tests.
///
/// Stdout and stderr are read at once on threads of their own (``PipeReader``) and stdin
/// is written from another, so no pipe that fills up can stall the program or the test.
/// `run` blocks; `output` runs it off the cooperative pool (``offPool(_:)``).
public enum Tool {
    /// What a program left.
    public struct Output: Sendable {
        /// Its exit status.
        public var status: Int32
        /// What it wrote to stdout (with `mergingErrors`, stderr's lines too, as they came).
        public var stdout: Data
        /// What it wrote to stderr (empty with `mergingErrors`).
        public var stderr: Data

        /// Stdout as UTF-8 text.
        public var text: String { String(decoding: stdout, as: UTF8.self) }
        /// Stderr as UTF-8 text.
        public var errors: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Runs `tool` (a path, or a name looked up on `PATH`) with `arguments` to its end.
    ///
    /// - Parameters:
    ///   - stdin: written to its stdin, which is then closed; without it stdin is
    ///     `/dev/null`.
    ///   - environment: its whole environment; the test's own when nil.
    ///   - directory: its working directory.
    ///   - mergingErrors: stderr goes to the same pipe as stdout (a log of both in order).
    /// - Throws: `TestSupportError.toolFailed` when it cannot be started.
    public static func run(_ tool: String, _ arguments: [String], stdin: Data? = nil,
                           environment: [String: String]? = nil, directory: URL? = nil,
                           mergingErrors: Bool = false) throws -> Output {
        let process = Process()
        if tool.contains("/") {
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [tool] + arguments
        }
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        let outPipe = ChildLaunch.pipe()
        let errPipe = mergingErrors ? outPipe : ChildLaunch.pipe()
        let inPipe = stdin.map { _ in ChildLaunch.pipe() }
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe ?? FileHandle.nullDevice
        // Process closes its copies of the program's pipe ends once it has started it.
        do { try ChildLaunch.run(process) } catch { throw TestSupportError.toolFailed("\(tool) cannot run: \(error)") }
        let out = Locked(Data()), err = Locked(Data())
        let ended = DispatchGroup()
        ended.enter()
        PipeReader.drain(outPipe.fileHandleForReading, name: "tool-stdout") { chunk in
            out.withLock { $0.append(chunk) }
        } onEnd: { ended.leave() }
        if !mergingErrors {
            ended.enter()
            PipeReader.drain(errPipe.fileHandleForReading, name: "tool-stderr") { chunk in
                err.withLock { $0.append(chunk) }
            } onEnd: { ended.leave() }
        }
        if let stdin, let inPipe {
            let writer = inPipe.fileHandleForWriting
            Thread { feed(stdin, to: writer) }.start()
        }
        process.waitUntilExit()
        ended.wait()
        return Output(status: process.terminationStatus, stdout: out.value, stderr: err.value)
    }

    /// Writes `data` to a program's stdin and closes it. SIGPIPE is blocked on this thread
    /// (a write to a pipe nobody reads raises it in the writing thread): a program that
    /// exits without reading everything makes the write fail with EPIPE instead of ending
    /// the test process.
    private static func feed(_ data: Data, to writer: FileHandle) {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
        let fd = writer.fileDescriptor
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { break }
                offset += written
            }
        }
        try? writer.close()
    }

    /// ``run(_:_:stdin:environment:directory:mergingErrors:)`` on a thread of its own, so
    /// a slow program holds none of the cooperative pool's few threads.
    public static func output(_ tool: String, _ arguments: [String], stdin: Data? = nil,
                              environment: [String: String]? = nil, directory: URL? = nil,
                              mergingErrors: Bool = false) async throws -> Output {
        try await offPool {
            try run(tool, arguments, stdin: stdin, environment: environment, directory: directory,
                    mergingErrors: mergingErrors)
        }
    }

    /// Runs `tool` and returns its stdout; throws `TestSupportError.toolFailed` with its
    /// stderr when it exits with a status other than 0.
    @discardableResult
    public static func succeed(_ tool: String, _ arguments: [String], stdin: Data? = nil,
                               environment: [String: String]? = nil, directory: URL? = nil) throws -> Data {
        let result = try run(tool, arguments, stdin: stdin, environment: environment, directory: directory)
        guard result.status == 0 else {
            throw TestSupportError.toolFailed("\(tool) \(arguments.joined(separator: " ")): \(result.errors)")
        }
        return result.stdout
    }
}
