import Foundation
import TestSupport

/// The built `mhz` as a child process with a private home: its stdout and stderr
/// collected (blocking reads on threads of their own, ``PipeReader``), for the tests of what
/// the station's command lines print.
final class BuiltMhz: Sendable {
    private let process: Process
    private let out = Locked(Data())
    private let err = Locked(Data())
    /// How many of stdout and stderr were read to their end.
    private let ended = Locked(0)

    /// Starts `mhz arguments…` with `HOME` at `home` and `environment` added to the test's own.
    init(_ arguments: [String], home: URL, environment: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProduct.path("mhz"))
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.lowercased().hasSuffix("_proxy") }
        env["HOME"] = home.path
        env["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        env.merge(environment) { $1 }
        process.environment = env
        let outPipe = Pipe(), errPipe = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outPipe
        process.standardError = errPipe
        try process.run()
        let out = self.out, err = self.err, ended = self.ended
        PipeReader.drain(outPipe.fileHandleForReading, name: "mhz-stdout") { chunk in
            out.withLock { $0.append(chunk) }
        } onEnd: { ended.withLock { $0 += 1 } }
        PipeReader.drain(errPipe.fileHandleForReading, name: "mhz-stderr") { chunk in
            err.withLock { $0.append(chunk) }
        } onEnd: { ended.withLock { $0 += 1 } }
    }

    deinit { kill() }

    /// What was written to stdout so far.
    var stdout: String { String(decoding: out.value, as: UTF8.self) }
    /// What was written to stderr so far.
    var stderr: String { String(decoding: err.value, as: UTF8.self) }

    /// The URL `mhz serve` announces (`mhz: serving N songs from DIR on URL`), once it has.
    func servedURL(within limit: Duration = .seconds(120)) async throws -> URL {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline, process.isRunning {
            if let line = stderr.split(separator: "\n").first(where: { $0.hasPrefix("mhz: serving ") }),
               let range = line.range(of: " on "), let url = URL(string: String(line[range.upperBound...])) {
                return url
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestSupportError.timeout("mhz serve did not announce its URL; stderr: \(stderr)")
    }

    /// Sends SIGTERM, as a service manager would.
    func terminate() { process.terminate() }

    /// Ends the process for sure (SIGKILL); nothing once it has ended.
    func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits for the process to end and for both pipes to be read to their end; its exit status.
    func exit(within limit: Duration = .seconds(120)) async throws -> Int32 {
        let deadline = ContinuousClock.now + limit
        while process.isRunning || ended.value < 2 {
            guard ContinuousClock.now < deadline else {
                kill()
                throw TestSupportError.timeout("mhz did not exit; stderr: \(stderr)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return process.terminationStatus
    }

    /// Runs `mhz arguments…` to its end.
    static func run(_ arguments: [String], home: URL, environment: [String: String] = [:])
        async throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try BuiltMhz(arguments, home: home, environment: environment)
        let status = try await child.exit()
        return (status, child.stdout, child.stderr)
    }
}
