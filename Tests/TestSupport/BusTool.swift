import Foundation

/// A command-line D-Bus client (`playerctl`, `dbus-monitor`) run against a `PrivateBus`,
/// its output read by ``PipeReader``, noting when each pipe reached its end.
public final class BusTool: Sendable {
    private let process: Process
    private let output = Locked(Data())
    private let errors = Locked(Data())
    /// How many of the two pipes reached end of file.
    private let ended = Locked(0)
    private let command: String

    /// Starts `executable` with `arguments`, its session bus being `bus`.
    public init(_ executable: String, _ arguments: [String], bus: PrivateBus) throws {
        command = ([executable] + arguments).joined(separator: " ")
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = bus.environment
        let stdout = ChildLaunch.pipe()
        let stderr = ChildLaunch.pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try ChildLaunch.run(process)
        let output = self.output, errors = self.errors, ended = self.ended
        PipeReader.drain(stdout.fileHandleForReading, name: "bus-tool-stdout") { chunk in
            output.withLock { $0.append(chunk) }
        } onEnd: { ended.withLock { $0 += 1 } }
        PipeReader.drain(stderr.fileHandleForReading, name: "bus-tool-stderr") { chunk in
            errors.withLock { $0.append(chunk) }
        } onEnd: { ended.withLock { $0 += 1 } }
    }

    /// What it wrote to standard output so far.
    public var text: String { String(decoding: output.value, as: UTF8.self) }

    /// What it wrote to standard error so far.
    public var errorText: String { String(decoding: errors.value, as: UTF8.self) }

    /// Waits until its output satisfies `condition`, at most `timeout`; throws with what it
    /// said otherwise.
    public func waitFor(_ what: String, timeout: Duration = .seconds(20), _ condition: (String) -> Bool) async throws {
        try await waitUntil("\(command): \(what) in \(timeout): \(text) \(errorText)", within: timeout) { condition(text) }
    }

    /// Ends it (``Foundation/Process/killAndReap()``) and waits until it is gone.
    public func stop() { process.killAndReap() }

    deinit { stop() }

    /// Runs `executable` to its end, at most `timeout` (then it is killed and this throws);
    /// returns its standard output, trimmed, and its exit status.
    public static func run(_ executable: String, _ arguments: [String], bus: PrivateBus,
                    timeout: Duration = .seconds(20)) async throws -> (output: String, status: Int32) {
        let run = try await runFully(executable, arguments, bus: bus, timeout: timeout)
        return (run.output, run.status)
    }

    /// `run`, with its standard error as well.
    public static func runFully(_ executable: String, _ arguments: [String], bus: PrivateBus,
                         timeout: Duration = .seconds(20)) async throws -> (output: String, errors: String, status: Int32) {
        let tool = try BusTool(executable, arguments, bus: bus)
        defer { tool.stop() }
        // Both pipes at their end: the child closed them (it ended), and every byte is in.
        try await waitUntil("\(tool.command) to end in \(timeout): \(tool.text) \(tool.errorText)", within: timeout) {
            !tool.process.isRunning && tool.ended.value == 2
        }
        tool.process.waitUntilExit()
        return (tool.text.trimmingCharacters(in: .whitespacesAndNewlines), tool.errorText,
                tool.process.terminationStatus)
    }

    /// `playerctl -p mhz ARGUMENTS` to its end; throws unless it succeeds.
    public static func playerctl(_ arguments: [String], bus: PrivateBus, player: String = "mhz") async throws -> String {
        let (output, status) = try await run("/usr/bin/playerctl", ["-p", player] + arguments, bus: bus)
        guard status == 0 else { throw TestSupportError.toolFailed("playerctl \(arguments.joined(separator: " ")) exited \(status): \(output)") }
        return output
    }
}
