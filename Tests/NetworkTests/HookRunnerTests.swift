import Foundation
import TestSupport
import Testing
@testable import Companions
@testable import mhz

/// The hook runner with a real hook (a shell script) that can be held: one run at a time,
/// in the order of the events, the event's JSON on stdin, and when a slow hook falls
/// behind, the oldest waiting events dropped past ``HookRunner/maxQueued``; a script still
/// open for writing runs once it is closed.
struct HookRunnerTests {
    /// A hook that appends `NAME STDIN` to `record` and, for the event `hold`, first says
    /// it started (the `started` file) and waits for the `release` file.
    static func hook(in folder: TemporaryDirectory) throws -> URL {
        let script = folder.path("hook")
        try ChildLaunch.writeExecutable("""
            #!/bin/sh
            line=$(cat)
            if [ "$1" = hold ]; then
              : > '\(folder.path("started").path)'
              while [ ! -e '\(folder.path("release").path)' ]; do sleep 0.01; done
            fi
            printf '%s %s\\n' "$1" "$line" >> '\(folder.path("record").path)'

            """, to: script)
        return script
    }

    /// The lines the hook recorded.
    static func record(in folder: TemporaryDirectory) -> [String] {
        ((try? String(contentsOf: folder.path("record"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test func aHookThatFallsBehindLosesTheOldestWaitingEventsAndRunsTheRestInOrder() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-hook-queue")
        let runner = HookRunner(command: try Self.hook(in: folder).path, timeout: .seconds(30), logFile: nil)
        defer { runner.stop(grace: .seconds(1)) }
        runner.run(event: "hold", json: #"{"event":"hold"}"#)
        try await waitUntil("the first hook running") {
            FileManager.default.fileExists(atPath: folder.path("started").path)
        }
        // Behind the running hook: two more than the queue holds.
        let waiting = HookRunner.maxQueued + 2
        for n in 1...waiting { runner.run(event: "e\(n)", json: #"{"n":\#(n)}"#) }
        FileManager.default.createFile(atPath: folder.path("release").path, contents: nil)
        // The last event's run is the last of all: once it is recorded, every run is.
        try await waitUntil("the last event's hook") { Self.record(in: folder).last == #"e\#(waiting) {"n":\#(waiting)}"# }
        #expect(Self.record(in: folder) == [#"hold {"event":"hold"}"#] + (3...waiting).map { #"e\#($0) {"n":\#($0)}"# })
    }

    @Test func eventsThatFitTheQueueAllRunInOrder() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-hook-queue")
        let runner = HookRunner(command: try Self.hook(in: folder).path, timeout: .seconds(30), logFile: nil)
        defer { runner.stop(grace: .seconds(1)) }
        runner.run(event: "hold", json: "{}")
        try await waitUntil("the first hook running") {
            FileManager.default.fileExists(atPath: folder.path("started").path)
        }
        for n in 1...HookRunner.maxQueued { runner.run(event: "e\(n)", json: "\(n)") }
        FileManager.default.createFile(atPath: folder.path("release").path, contents: nil)
        try await waitUntil("the last event's hook") { Self.record(in: folder).last == "e\(HookRunner.maxQueued) \(HookRunner.maxQueued)" }
        #expect(Self.record(in: folder) == ["hold {}"] + (1...HookRunner.maxQueued).map { "e\($0) \($0)" })
    }

    @Test func aHookScriptStillOpenForWritingRunsOnceItIsClosed() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-hook-busy")
        let script = try Self.hook(in: folder)
        // The script held open for writing, as an editor saving it would: exec refuses it
        // with ETXTBSY for as long as this descriptor is open.
        let writer = open(script.path, O_WRONLY | O_APPEND | O_CLOEXEC)
        try #require(writer >= 0)
        let log = LogCapture()
        let runner = HookRunner(command: script.path, timeout: .seconds(30), logFile: nil, logger: log.logger)
        defer { runner.stop(grace: .seconds(1)) }
        runner.run(event: "liked", json: "{}")
        // The runner was refused once and tries again; only then is the file let go.
        try await waitUntil("the busy script's first refusal") { log.text.contains("text file busy") }
        close(writer)
        try await waitUntil("the hook's run") { !Self.record(in: folder).isEmpty }
        #expect(Self.record(in: folder) == ["liked {}"])
        #expect(!log.text.contains("cannot run"))
    }
}
