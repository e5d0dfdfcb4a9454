import Foundation

/// The built `mhz`, run as a child process by the tests of the real binary: stdin for
/// commands (or closed at once), stdout and stderr read to their end on threads of their
/// own (``PipeReader``), stdout's JSON lines parsed as events.
///
/// The one launcher of the binary: every test that runs `mhz` runs it through this, so
/// every such process is ended the same way (``exit(timeout:)`` kills one that does not
/// end; so does the value's deinitialisation).
public final class BuiltMhz: Sendable {
    /// One JSON line of stdout.
    public struct Event: @unchecked Sendable {
        /// The object as JSONSerialization read it (`NSNumber`, `NSNull`, arrays…).
        public let fields: [String: Any]
        /// Its `event` field.
        public var name: String { fields["event"] as? String ?? "" }
        /// A string field, or a number field as text; nil when absent or of another type.
        public subscript(_ key: String) -> String? {
            if let text = fields[key] as? String { return text }
            if let number = fields[key] as? NSNumber { return number.stringValue }
            return nil
        }
        /// A number field.
        public func number(_ key: String) -> Double? { (fields[key] as? NSNumber)?.doubleValue }
    }

    private struct Output {
        var stdout = Data()
        var stderr = Data()
        /// Stdout's bytes after its last newline.
        var partial = Data()
        var lines: [String] = []
        var events: [Event] = []
        /// How many of stdout and stderr were read to their end.
        var ended = 0
    }

    private let process: Process
    private let input: FileHandle
    private let output = Locked(Output())

    /// The built `mhz` next to the test bundle.
    public static var executable: URL { URL(fileURLWithPath: BuiltProduct.path("mhz")) }

    /// Starts `mhz arguments…`.
    ///
    /// - Parameters:
    ///   - home: when given, `HOME` and `XDG_CONFIG_HOME` (`home/config`) point into it.
    ///   - environment: added to the test's own environment, whose `*_proxy` variables are
    ///     left out (only what a test sets reaches libcurl), and so are those `unset` names.
    ///   - stdin: when given, written to stdin, which is then closed; nil keeps stdin open
    ///     for ``send(_:)``.
    ///   - prelude: shell commands (`ulimit -f 200`, a `mount`) run by a bash that then
    ///     becomes mhz (`exec`), so ``pid`` is mhz's.
    ///   - launcher: runs that bash (`unshare --mount …`); it must exec it, not fork.
    public init(_ arguments: [String], home: URL? = nil, environment: [String: String] = [:], unset: [String] = [],
                stdin: String? = nil, prelude: [String] = [], launcher: [String] = []) throws {
        process = Process()
        if prelude.isEmpty, launcher.isEmpty {
            process.executableURL = Self.executable
            process.arguments = arguments
        } else {
            let command = launcher + ["/bin/bash", "-c", (prelude + ["exec \"$0\" \"$@\""]).joined(separator: " && "),
                                      Self.executable.path] + arguments
            process.executableURL = URL(fileURLWithPath: command[0])
            process.arguments = Array(command.dropFirst())
        }
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.lowercased().hasSuffix("_proxy") }
        if let home {
            env["HOME"] = home.path
            env["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        }
        for name in unset { env[name] = nil }
        env.merge(environment) { $1 }
        process.environment = env
        let inPipe = ChildLaunch.pipe(), outPipe = ChildLaunch.pipe(), errPipe = ChildLaunch.pipe()
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = errPipe
        input = inPipe.fileHandleForWriting
        let output = self.output
        // Started first: a launch that fails leaves no reader blocked on the pipe.
        try ChildLaunch.run(process)
        PipeReader.drain(outPipe.fileHandleForReading, name: "mhz-stdout") { chunk in
            output.withLock { Self.take(chunk, into: &$0) }
        } onEnd: {
            output.withLock { $0.ended += 1 }
        }
        PipeReader.drain(errPipe.fileHandleForReading, name: "mhz-stderr") { chunk in
            output.withLock { $0.stderr.append(chunk) }
        } onEnd: {
            output.withLock { $0.ended += 1 }
        }
        if let stdin {
            input.write(Data(stdin.utf8))
            closeInput()
        }
    }

    private static func take(_ chunk: Data, into output: inout Output) {
        output.stdout.append(chunk)
        output.partial.append(chunk)
        while let newline = output.partial.firstIndex(of: 0x0A) {
            let line = output.partial[output.partial.startIndex..<newline]
            output.partial.removeSubrange(output.partial.startIndex...newline)
            output.lines.append(String(decoding: line, as: UTF8.self))
            if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] {
                output.events.append(Event(fields: object))
            }
        }
    }

    deinit { kill() }

    /// Runs `mhz arguments…` to its end with `stdin` (closed after it).
    public static func run(_ arguments: [String], home: URL? = nil, environment: [String: String] = [:],
                           stdin: String = "") async throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try BuiltMhz(arguments, home: home, environment: environment, stdin: stdin)
        let status = try await child.exit()
        return (status, child.stdout, child.stderr)
    }

    /// Writes one command line to stdin.
    public func send(_ line: String) { input.write(Data((line + "\n").utf8)) }

    /// Closes stdin (EOF).
    public func closeInput() { try? input.close() }

    /// What was written to stdout so far.
    public var stdout: String { String(decoding: output.withLock { $0.stdout }, as: UTF8.self) }
    /// What was written to stderr so far.
    public var stderr: String { String(decoding: output.withLock { $0.stderr }, as: UTF8.self) }
    /// Every whole stdout line so far.
    public var lines: [String] { output.withLock { $0.lines } }
    /// Every stdout line that is a JSON object, so far, in order.
    public var events: [Event] { output.withLock { $0.events } }

    /// Waits for the first event after index `from` named `name` and matching `match`;
    /// its index in ``events`` and the event.
    /// - Throws: `TestSupportError.timeout` with the last lines when none came in time or
    ///   the process ended without it.
    @discardableResult
    public func waitFor(_ name: String, after from: Int = 0, timeout: Double = 30,
                        where match: (Event) -> Bool = { _ in true }) async throws -> (index: Int, event: Event) {
        let noEvent = { "no \"\(name)\" event; got: \(self.lines.suffix(12).joined(separator: "\n")) stderr: \(self.stderr)" }
        return try await waitForValue(noEvent(), within: .seconds(timeout), every: .milliseconds(20)) {
            () throws -> (index: Int, event: Event)? in
            let running = process.isRunning
            let snapshot = events
            if snapshot.count > from {
                for index in from..<snapshot.count where snapshot[index].name == name && match(snapshot[index]) {
                    return (index, snapshot[index])
                }
            }
            // Its last lines are read after its exit is seen: one more look once both ended.
            if !running, output.withLock({ $0.ended }) == 2 { throw TestSupportError.timeout(noEvent()) }
            return nil
        }
    }

    /// Asks `status` until `match` holds for an answer at index `from` or later (at most
    /// `limit`); that answer.
    /// - Throws: `TestSupportError.timeout` with the last answer when none matched in time.
    @discardableResult
    public func status(after from: Int = 0, within limit: Duration = .seconds(20),
                       until match: (Event) -> Bool) async throws -> (index: Int, event: Event) {
        var from = from
        var last: Event?
        return try await waitForValue("status never matched; last: \(last?.fields ?? [:])", within: limit,
                                      every: .milliseconds(100)) {
            send("status")
            let answer = try await waitFor("status", after: from)
            last = answer.event
            from = answer.index + 1
            return match(answer.event) ? answer : nil
        }
    }

    /// Asks `status` until it reports a position past the start: playback is under way and
    /// the radio has a position it will save.
    public func waitForPosition(timeout: Double = 60) async throws {
        try await status(within: .seconds(timeout)) { ($0.number("position") ?? 0) > 0 }
    }

    /// The URL `mhz serve` announces on stderr (`mhz: serving N songs from DIR on URL`),
    /// once it has.
    public func servedURL(within limit: Duration = .seconds(120)) async throws -> URL {
        let silent = { "mhz serve did not announce its URL; stderr: \(self.stderr)" }
        return try await waitForValue(silent(), within: limit, every: .milliseconds(50)) { () throws -> URL? in
            if let line = stderr.split(separator: "\n").first(where: { $0.hasPrefix("mhz: serving ") }),
               let range = line.range(of: " on "), let url = URL(string: String(line[range.upperBound...])) {
                return url
            }
            guard process.isRunning else { throw TestSupportError.timeout(silent()) }
            return nil
        }
    }

    /// Waits for the process to end and for both pipes to be read to their end (so
    /// ``stdout`` and ``stderr`` are complete); its exit status. One still running after
    /// `timeout` seconds is killed.
    public func exit(timeout: Double = 60) async throws -> Int32 {
        let deadline = ContinuousClock.now + .seconds(timeout)
        do {
            try await waitUntil("mhz to exit", within: .seconds(timeout), every: .milliseconds(20)) { !process.isRunning }
        } catch TestSupportError.timeout {
            kill()
            throw TestSupportError.timeout("mhz did not exit; stderr: \(stderr)")
        }
        // A child it left may hold the pipes open past the deadline: then what it wrote
        // last may be missing.
        _ = await eventually(within: deadline - ContinuousClock.now) { output.withLock { $0.ended } == 2 }
        return process.terminationStatus
    }

    /// Runs `body` with this process and then kills it (SIGKILL, reaped) however `body`
    /// ended; nothing to kill when it had exited. A test's mhz is ended here, not by a
    /// `kill()` in a `catch` of its own.
    public func whileRunning<T>(_ body: (BuiltMhz) async throws -> T) async throws -> T {
        defer { kill() }
        return try await body(self)
    }

    /// Whether the process is still running.
    public var isRunning: Bool { process.isRunning }

    /// mhz's process id (a launcher and the shell before it became mhz had the same).
    public var pid: Int32 { process.processIdentifier }

    /// Sends a signal.
    public func signal(_ number: Int32) { Glibc.kill(process.processIdentifier, number) }

    /// Sends SIGTERM, as `kill` or a service manager would.
    public func terminate() { signal(SIGTERM) }

    /// Ends the process for sure (SIGKILL) and reaps it; nothing once it has ended.
    public func kill() {
        process.killAndReap()
    }
}
