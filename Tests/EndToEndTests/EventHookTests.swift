import Foundation
import TestSupport
import Testing

/// `[hooks] event`: the built mhz runs the command once per event, in order, with the
/// event's name as its argument and the headless line on stdin; a hook that sleeps never
/// holds up playback, and none outlives its time limit or mhz.
@Suite(.serialized)
struct EventHookTests {
    /// Writes `script` as an executable file in `home`.
    private func hook(_ script: String, in home: TemporaryDirectory) throws -> URL {
        let url = home.path("hook.sh")
        try ChildLaunch.writeExecutable("#!/bin/sh\n" + script, to: url)
        return url
    }

    /// The lines of `file` once one of them is a line for which `match` is true; throws,
    /// with what the file holds, when none is within `limit`.
    private func waitForLine(in file: URL, within limit: Duration = .seconds(30), _ match: (String) -> Bool) async throws
        -> [String] {
        func lines() -> [String] {
            ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        do {
            return try await waitForValue("the line in \(file.lastPathComponent)", within: limit) {
                let lines = lines()
                return lines.contains(where: match) ? lines : nil
            }
        } catch TestSupportError.timeout {
            throw TestSupportError.timeout("\(file.lastPathComponent) never got the line; it holds: \(lines())")
        }
    }

    @Test func theHookHearsEveryEventsNameAndItsExactLineInOrder() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-hook")
        let log = home.path("events.log")
        let script = try hook("{ printf '%s ' \"$1\"; cat; } >> '\(log.path)'\n", in: home)
        try await ControlSocketTests.Running.with(config: "[hooks]\nevent = \"\(script.path)\"\n") { running in
            let mhz = running.mhz
            let first = try await mhz.waitFor("playing")
            mhz.send("skip")
            let second = try await mhz.waitFor("playing", after: first.index + 1)
            mhz.send("like")
            let liked = try await mhz.waitFor("liked", after: second.index)
            mhz.send("status")
            _ = try await mhz.waitFor("status", after: liked.index)
            // The hook writes its name, then its stdin: the line is whole once it ends in `}`.
            let lines = try await waitForLine(in: log) { $0.hasPrefix("liked {") && $0.hasSuffix("}") }

            // Exactly the lines headless stdout printed, each after its name; `status`
            // answers a question and runs no hook.
            let stdout = mhz.lines
            try #require(stdout.count == mhz.events.count)
            let expected = zip(mhz.events, stdout).filter { $0.0.name != "status" }.map { "\($0.0.name) \($0.1)" }
            #expect(Array(lines.prefix(expected.count)) == expected)
            #expect(expected.map { $0.prefix(while: { $0 != " " }) } == ["channel", "playing", "skipped", "playing", "liked"])
            mhz.send("quit")
            #expect(try await mhz.exit() == 0)
        }
    }

    @Test func aHookThatHasNotEndedHoldsUpNoSkip() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-hook-held")
        let log = home.path("events.log")
        let release = home.path("release")
        // The first run (the channel's) notes its start and then waits for the test to let
        // it go; its time limit is far off. Each run notes its end.
        let script = try hook("""
            echo "start $1" >> '\(log.path)'
            if [ "$1" = channel ]; then while [ ! -e '\(release.path)' ]; do sleep 0.05; done; fi
            echo "end $1" >> '\(log.path)'

            """, in: home)
        try await ControlSocketTests.Running.with(config: "[hooks]\nevent = \"\(script.path)\"\ntimeout = 600\n") { running in
            let mhz = running.mhz
            let first = try await mhz.waitFor("playing")
            _ = try await waitForLine(in: log) { $0 == "start channel" }
            mhz.send("skip")
            let skipped = try await mhz.waitFor("skipped", after: first.index)
            _ = try await mhz.waitFor("playing", after: skipped.index)
            // The skip and the song after it came while the first hook, started before
            // them, still ran: it has not been let go, and the hooks after it wait their turn.
            let held = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
            #expect(held == ["start channel"], "\(held)")

            FileManager.default.createFile(atPath: release.path, contents: nil)
            let lines = try await waitForLine(in: log) { $0 == "end skipped" }
            #expect(Array(lines.prefix(6)) == ["start channel", "end channel", "start playing", "end playing",
                                               "start skipped", "end skipped"])
            mhz.send("quit")
            #expect(try await mhz.exit() == 0)
        }
    }

    @Test func aSleepingHookIsStoppedAtItsTimeLimitWithItsProcessGroup() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-hook-slow")
        let log = home.path("events.log")
        // Each run notes its start (and its process group, the shell's pid), then sleeps far
        // past the 1 s limit; "end" would mean it was not stopped.
        let script = try hook("echo \"start $1 $$\" >> '\(log.path)'\nsleep 30\necho \"end $1\" >> '\(log.path)'\n", in: home)
        var groups: [pid_t] = []
        try await ControlSocketTests.Running.with(
            config: "[hooks]\nevent = \"\(script.path)\"\ntimeout = 1\n") { running in
            let mhz = running.mhz
            let first = try await mhz.waitFor("playing")
            mhz.send("skip")
            _ = try await mhz.waitFor("skipped", after: first.index)
            // Hooks run one at a time: each run after the first starts only once the one
            // before it was stopped, long before its 30 s sleep ends.
            let lines = try await waitForLine(in: log) { $0.hasPrefix("start skipped ") }
            #expect(lines.prefix(3).map { $0.split(separator: " ")[1] } == ["channel", "playing", "skipped"])
            #expect(!lines.contains { $0.hasPrefix("end ") })
            groups = lines.prefix(3).compactMap { pid_t($0.split(separator: " ")[2]) }
            // mhz ends the hook still running (the skip's) on its way out.
            mhz.send("quit")
            #expect(try await mhz.exit() == 0)
        }
        // mhz ended each hook's process group (the shell and its sleep), the last on its way
        // out. A member sent SIGKILL a moment ago dies when the scheduler next runs it (a busy
        // machine may take a while) and may then stay a zombie waiting for init: the groups
        // are watched until no live member is left.
        #expect(groups.count == 3)
        for group in groups {
            let alive = await Self.liveMembers(ofGroup: group, within: .seconds(20))
            #expect(alive.isEmpty, "process group \(group) still has \(alive)")
        }
    }

    /// The live members of `group` once there are none, or those left after `limit`.
    static func liveMembers(ofGroup group: pid_t, within limit: Duration) async -> [String] {
        _ = await eventually(within: limit) { liveMembers(ofGroup: group).isEmpty }
        return liveMembers(ofGroup: group)
    }

    /// The pids in process group `group` that are not zombies, from /proc/PID/stat
    /// ("pid (comm) state ppid pgrp …", proc(5)).
    static func liveMembers(ofGroup group: pid_t) -> [String] {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return pids.filter { $0.allSatisfy(\.isNumber) }.compactMap { pid -> String? in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", pid_t(fields[2]) == group else { return nil }
            return "\(pid) \(stat.prefix(upTo: close))"
        }
    }
}
