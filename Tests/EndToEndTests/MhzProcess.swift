import Foundation
import TestSupport

/// The real `mhz` executable, started as a child process for end-to-end tests: stdin for
/// commands, stdout parsed as JSON lines, stderr kept for failure messages.
final class MhzProcess: Sendable {
    /// One parsed event line.
    struct Event: @unchecked Sendable {
        let fields: [String: Any]
        var name: String { fields["event"] as? String ?? "" }
        subscript(_ key: String) -> String? {
            if let s = fields[key] as? String { return s }
            if let n = fields[key] as? NSNumber { return n.stringValue }
            return nil
        }
        func number(_ key: String) -> Double? { (fields[key] as? NSNumber)?.doubleValue }
    }

    private let process: Process
    private let input: FileHandle
    private let events = Locked<[Event]>([])
    private let stderrText = Locked<String>("")
    private let rawLines = Locked<[String]>([])
    /// How many of stdout and stderr were read to their end.
    private let outputsEnded = Locked(0)

    /// The built `mhz` next to the test bundle.
    static var executable: URL { URL(fileURLWithPath: BuiltProduct.path("mhz")) }

    /// Starts `mhz arguments…`; with `fileSizeLimitKiB`, under that file-size limit
    /// (`ulimit -f`), and with `prelude`, after those shell commands (a `mount`), both run
    /// by a bash that then becomes mhz. `launcher` runs that bash (`unshare --mount …`), so
    /// the process id is mhz's all the same (neither forks).
    init(arguments: [String], environment: [String: String] = [:], fileSizeLimitKiB: Int? = nil,
         prelude: String? = nil, launcher: [String] = []) throws {
        process = Process()
        // bash counts `ulimit -f` in 1024-byte blocks.
        let steps = [fileSizeLimitKiB.map { "ulimit -f \($0)" }, prelude].compactMap { $0 }
        if !steps.isEmpty || !launcher.isEmpty {
            let shell = ["/bin/bash", "-c", (steps + ["exec \"$0\" \"$@\""]).joined(separator: " && "),
                         Self.executable.path] + arguments
            let command = launcher + shell
            process.executableURL = URL(fileURLWithPath: command[0])
            process.arguments = Array(command.dropFirst())
        } else {
            process.executableURL = Self.executable
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        process.environment = env
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        input = stdin.fileHandleForWriting
        let events = self.events, rawLines = self.rawLines, stderrText = self.stderrText
        let outputsEnded = self.outputsEnded
        let buffer = Locked<Data>(Data())
        // Started first: a launch that fails leaves no reader blocked on the pipe.
        try process.run()
        PipeReader.drain(stdout.fileHandleForReading, name: "mhz-stdout") { chunk in
            let lines: [Data] = buffer.withLock { data in
                data.append(chunk)
                var out: [Data] = []
                while let newline = data.firstIndex(of: 0x0A) {
                    out.append(data[data.startIndex..<newline])
                    data.removeSubrange(data.startIndex...newline)
                }
                return out
            }
            for line in lines {
                rawLines.withLock { $0.append(String(decoding: line, as: UTF8.self)) }
                if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] {
                    events.withLock { $0.append(Event(fields: object)) }
                }
            }
        } onEnd: {
            outputsEnded.withLock { $0 += 1 }
        }
        PipeReader.drain(stderr.fileHandleForReading, name: "mhz-stderr") { chunk in
            stderrText.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
        } onEnd: {
            outputsEnded.withLock { $0 += 1 }
        }
    }

    /// Writes one command line.
    func send(_ line: String) { input.write(Data((line + "\n").utf8)) }

    /// Closes stdin (EOF).
    func closeInput() { try? input.close() }

    /// All events so far.
    var all: [Event] { events.withLock { $0 } }
    /// Every stdout line so far.
    var lines: [String] { rawLines.withLock { $0 } }
    /// What the process wrote to stderr.
    var errorOutput: String { stderrText.withLock { $0 } }

    /// Waits for the first event after index `from` named `name` and matching `match`.
    @discardableResult
    func waitFor(_ name: String, after from: Int = 0, timeout: Double = 20,
                 where match: (Event) -> Bool = { _ in true }) async throws -> (index: Int, event: Event) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let snapshot = all
            if snapshot.count > from {
                for i in from..<snapshot.count where snapshot[i].name == name && match(snapshot[i]) {
                    return (i, snapshot[i])
                }
            }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestSupportError.timeout("no \"\(name)\" event; got: \(lines.suffix(12).joined(separator: "\n")) stderr: \(errorOutput)")
    }

    /// Waits for the process to exit and returns its status, once what it wrote is read:
    /// `lines` and `errorOutput` are complete then (unless a child it left holds the pipes
    /// open past the deadline).
    func waitForExit(timeout: Double = 15) async throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            guard Date() < deadline else {
                process.terminate()
                throw TestSupportError.timeout("mhz did not exit; stderr: \(errorOutput)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        while outputsEnded.value < 2, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        return process.terminationStatus
    }

    /// Whether the process is still running.
    var isRunning: Bool { process.isRunning }

    /// Sends a signal.
    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// mhz's process id (the launcher and the shell before it became mhz).
    var pid: Int32 { process.processIdentifier }

    deinit { if process.isRunning { process.terminate() } }
}
