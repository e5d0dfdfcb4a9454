import Foundation
import TestSupport

/// The built `mhz`, run as a child process with a private home, config and data
/// directory: stdin fed, stdout and stderr collected, stdout's JSON lines parsed.
final class MhzRun: Sendable {
    private let process: Process
    private let input: FileHandle
    private let out = Locked<Data>(Data())
    private let err = Locked<Data>(Data())
    /// How many of stdout and stderr were read to their end.
    private let outputsEnded = Locked(0)

    /// Starts `mhz arguments…`. Proxy variables of the test's own environment are removed
    /// so only what a test sets reaches libcurl. With `openFileSoftLimit`, `mhz` starts
    /// with that soft `RLIMIT_NOFILE` (set by the shell, which then execs it: the process
    /// is `mhz` itself), as on a system whose default is lower than the test's.
    init(_ arguments: [String], home: URL, environment: [String: String] = [:], stdin: String? = nil,
         openFileSoftLimit: Int? = nil) throws {
        process = Process()
        if let openFileSoftLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -Sn \(openFileSoftLimit) && exec \"$0\" \"$@\"", BuiltProduct.path("mhz")]
                + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: BuiltProduct.path("mhz"))
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.lowercased().hasSuffix("_proxy") }
        env["HOME"] = home.path
        env["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        env.merge(environment) { $1 }
        process.environment = env
        let inPipe = Pipe(), outPipe = Pipe(), errPipe = Pipe()
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = errPipe
        input = inPipe.fileHandleForWriting
        let out = self.out, err = self.err, outputsEnded = self.outputsEnded
        // Started first: a launch that fails leaves no reader blocked on the pipe.
        try process.run()
        PipeReader.drain(outPipe.fileHandleForReading, name: "mhz-stdout") { chunk in
            out.withLock { $0.append(chunk) }
        } onEnd: {
            outputsEnded.withLock { $0 += 1 }
        }
        PipeReader.drain(errPipe.fileHandleForReading, name: "mhz-stderr") { chunk in
            err.withLock { $0.append(chunk) }
        } onEnd: {
            outputsEnded.withLock { $0 += 1 }
        }
        if let stdin {
            input.write(Data(stdin.utf8))
            try? input.close()
        }
    }

    deinit { if process.isRunning { process.terminate() } }

    /// What was written to stdout so far.
    var stdout: String { String(decoding: out.value, as: UTF8.self) }
    /// What was written to stderr so far.
    var stderr: String { String(decoding: err.value, as: UTF8.self) }

    /// The JSON objects written to stdout so far, one per line.
    var events: [[String: String]] {
        stdout.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return object.compactMapValues { value in
                if let text = value as? String { return text }
                if let number = value as? NSNumber { return number.stringValue }
                return nil
            }
        }
    }

    /// The process id, to read its `/proc` entries.
    var processIdentifier: Int32 { process.processIdentifier }

    /// The URL `mhz serve` announces on stderr (`mhz: serving N songs from DIR on URL`),
    /// once it has.
    func servedURL(within limit: Duration = .seconds(120)) async throws -> URL {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let line = stderr.split(separator: "\n").first(where: { $0.hasPrefix("mhz: serving ") }),
               let range = line.range(of: " on "), let url = URL(string: String(line[range.upperBound...])) {
                return url
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestSupportError.timeout("mhz serve did not announce its URL; stderr: \(stderr)")
    }

    /// Sends SIGTERM, as `kill` or a service manager would.
    func terminate() { process.terminate() }

    /// Ends the process for sure (SIGKILL), for a test that failed before it could stop
    /// it the ordinary way; nothing once it has ended.
    func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Writes a command line to stdin.
    func send(_ line: String) { input.write(Data((line + "\n").utf8)) }

    /// Waits for an event matching `match`.
    @discardableResult
    func waitFor(timeout: Double = 60, _ match: @escaping ([String: String]) -> Bool) async throws -> [String: String] {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while ContinuousClock.now < deadline {
            if let hit = events.first(where: match) { return hit }
            if !process.isRunning, events.first(where: match) == nil { break }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw TestSupportError.timeout("no such event; stdout: \(stdout) stderr: \(stderr)")
    }

    /// Asks for `status` until it reports a position past the start: playback is under way
    /// and the radio has a position it will save.
    func waitForPosition(timeout: Double = 60) async throws {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while ContinuousClock.now < deadline {
            if events.contains(where: { $0["event"] == "status" && (Double($0["position"] ?? "") ?? 0) > 0 }) { return }
            send("status")
            try await Task.sleep(for: .milliseconds(200))
        }
        throw TestSupportError.timeout("no position past 0; stdout: \(stdout) stderr: \(stderr)")
    }

    /// Waits for the process to end; its exit status.
    func exit(timeout: Double = 60) async throws -> Int32 {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                process.terminate()
                throw TestSupportError.timeout("mhz did not exit; stderr: \(stderr)")
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        // What it wrote last is read once both pipes reached their end (unless a child it
        // left holds them open past the deadline).
        while outputsEnded.value < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        return process.terminationStatus
    }

    /// Runs `mhz arguments…` to completion.
    static func run(_ arguments: [String], home: URL, environment: [String: String] = [:], stdin: String = "")
        async throws -> (status: Int32, stdout: String, stderr: String) {
        let run = try MhzRun(arguments, home: home, environment: environment, stdin: stdin)
        let status = try await run.exit()
        return (status, run.stdout, run.stderr)
    }
}
