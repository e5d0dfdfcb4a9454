import BenchKit
import Foundation
import Synchronization

/// The real `mhz` binary running headless (`--headless --audio-output null`): commands
/// written to its standard input, its JSON lines read and stamped as they arrive. Its
/// standard error goes to `stderr.log` in the install's root for when something fails.
/// `@unchecked Sendable`: the process and pipe handles are set once; the events and the
/// polling flag are behind mutexes.
final class HeadlessMhz: @unchecked Sendable {
    private let process: Process
    /// mhz's standard input; closed when this object goes (the status poller holds it).
    private let input: FileHandle
    private let events = EventLog()
    private let polling = Mutex(false)

    /// When the process was spawned (just before `posix_spawn`).
    let spawned: ContinuousClock.Instant

    /// Starts mhz, with `extraArguments` after the install's own (e.g. `--server URL`).
    init(_ install: MhzInstall, extraArguments: [String] = []) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: install.binary)
        process.arguments = install.arguments(headless: true) + extraArguments
        process.environment = install.environment
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        let errors = install.root.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        self.process = process
        input = stdin.fileHandleForWriting
        spawned = .now
        try process.run()
        // The pipe stays open while `process` (which holds it) lives.
        let output = stdout.fileHandleForReading.fileDescriptor
        let events = self.events
        Thread {
            var pending = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(output, &buffer, buffer.count)
                guard count > 0 else { return }
                let now = ContinuousClock.now
                pending += buffer[0..<count]
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    if let event = MhzEvent(line, at: now) { events.append(event) }
                }
            }
        }.start()
    }

    /// Writes one command line.
    func send(_ command: String) {
        let line = Array((command + "\n").utf8)
        _ = line.withUnsafeBytes { write(input.fileDescriptor, $0.baseAddress, $0.count) }
    }

    /// How many events have arrived.
    var count: Int { events.count }

    /// Every event so far, in order.
    var all: [MhzEvent] { events.all }

    /// The process id, for sampling it from `/proc`.
    var pid: Int32 { process.processIdentifier }

    /// Waits for the first event after `index` that `match` accepts.
    func wait(after index: Int = 0, timeout: Duration = .seconds(30), what: String,
              _ match: (MhzEvent) -> Bool) throws -> MhzEvent {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let found = events.first(after: index, where: match) { return found }
            if !process.isRunning { throw BenchError.tool("mhz exited (status \(process.terminationStatus)) before \(what)") }
            usleep(200)
        }
        let last = events.last?.line ?? "nothing"
        throw BenchError.timeout("mhz: no \(what) within \(timeout) (last line: \(last))")
    }

    /// Asks for `status` every `interval` until ``stopPolling()``: headless mhz reports its
    /// position only when asked.
    func pollStatus(every interval: Duration) {
        polling.withLock { $0 = true }
        let micro = useconds_t(seconds(interval) * 1_000_000)
        Thread { [self] in
            while polling.withLock({ $0 }) {
                send("status")
                usleep(micro)
            }
        }.start()
    }

    /// Stops the status requests.
    func stopPolling() { polling.withLock { $0 = false } }

    /// Sends `quit` and waits for mhz to exit; kills it if it has not within 10 s.
    func quit() {
        stopPolling()
        send("quit")
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// The events read so far, shared with the reading thread.
private final class EventLog: Sendable {
    private let events = Mutex<[MhzEvent]>([])

    /// Records one event.
    func append(_ event: MhzEvent) { events.withLock { $0.append(event) } }

    /// How many events so far.
    var count: Int { events.withLock { $0.count } }

    /// Every event so far.
    var all: [MhzEvent] { events.withLock { $0 } }

    /// The latest event, for error messages.
    var last: MhzEvent? { events.withLock { $0.last } }

    /// The first event after `index` that `match` accepts.
    func first(after index: Int, where match: (MhzEvent) -> Bool) -> MhzEvent? {
        events.withLock { $0.dropFirst(index).first(where: match) }
    }
}
