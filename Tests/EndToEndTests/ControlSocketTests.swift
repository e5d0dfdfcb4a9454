import Foundation
import TestSupport
import Testing

/// The control socket of a running headless `mhz`, driven through the built `mhz ctl` and
/// through the socket itself: the answers, the events, several clients at once, and clients
/// that misbehave.
@Suite(.serialized)
struct ControlSocketTests {
    /// A headless mhz against a live station, with a private runtime directory for its socket.
    struct Running {
        let station: HeadlessRadioTests.LiveStation
        let home: TemporaryDirectory
        let mhz: BuiltMhz

        /// The environment both mhz and ctl see.
        var environment: [String: String] {
            ["XDG_RUNTIME_DIR": home.path("run").path, "XDG_CONFIG_HOME": home.path("config").path, "HOME": home.url.path]
        }
        var dataDirectory: String { home.path("data").path }

        /// Starts a headless mhz against a new station, with `extraArguments` and `config`
        /// (a config file's text), and runs `body` with it; mhz is killed (when it has not
        /// ended) and then the station closed, however `body` ended.
        static func with<T>(extraArguments: [String] = [], config: String? = nil,
                            _ body: (Running) async throws -> T) async throws -> T {
            try await HeadlessRadioTests.LiveStation.with { station in
                let home = try TemporaryDirectory(prefix: "mhz-ctl")
                try FileManager.default.createDirectory(at: home.path("run"), withIntermediateDirectories: true)
                var arguments = ["--headless", "--server", station.url.absoluteString, "--audio-output", "null",
                                 "--data-dir", home.path("data").path, "--channel", "0"]
                if let config {
                    try config.write(to: home.path("config.toml"), atomically: true, encoding: .utf8)
                    arguments += ["--config", home.path("config.toml").path]
                }
                let env = ["XDG_RUNTIME_DIR": home.path("run").path, "XDG_CONFIG_HOME": home.path("config").path,
                           "HOME": home.url.path]
                return try await BuiltMhz(arguments + extraArguments, environment: env).whileRunning { mhz in
                    try await body(Running(station: station, home: home, mhz: mhz))
                }
            }
        }

        /// The socket the desktop guide names: `$XDG_RUNTIME_DIR/mhz/`, one per data directory.
        func socketPath() throws -> String {
            let directory = home.path("run/mhz")
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            let socket = try #require(names.first { $0.hasPrefix("mhz-") && $0.hasSuffix(".sock") }, "sockets: \(names)")
            return directory.appendingPathComponent(socket).path
        }

        /// `mhz ctl arguments…` to completion.
        func ctl(_ arguments: [String]) async throws -> (status: Int32, stdout: [String], stderr: String) {
            let process = try BuiltMhz(["ctl", "--data-dir", dataDirectory] + arguments, environment: environment)
            process.closeInput()
            let status = try await process.exit(timeout: 20)
            return (status, process.lines, process.stderr)
        }
    }

    @Test func ctlSendsTheHeadlessCommandsAndPrintsEachAnswer() async throws {
        try await Running.with { running in
            let mhz = running.mhz
            let first = try await mhz.waitFor("playing")
            let firstSid = try #require(first.event["sid"])

            // status: the status object headless stdout prints, for this client only.
            let status = try await running.ctl(["status"])
            #expect(status.status == 0, "\(status.stderr)")
            #expect(status.stdout.count == 1)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout[0].utf8)) as? [String: Any])
            #expect(object["event"] as? String == "status")
            #expect(object["sid"] as? String == firstSid)
            #expect(object["channel"] as? String == "0")

            // skip: answered once the session took it; the song after it plays.
            let skip = try await running.ctl(["skip"])
            #expect(skip.status == 0)
            #expect(skip.stdout == [#"{"command":"skip","ok":true}"#])
            let skipped = try await mhz.waitFor("skipped", after: first.index)
            #expect(skipped.event["sid"] == firstSid)
            let second = try await mhz.waitFor("playing", after: skipped.index)
            let report = try await running.station.waitForReport { $0.parameter("type") == "s" }
            #expect(report.parameter("sid") == firstSid)

            // like, volume, pause and resume (toggle), seek back: each one answer, each done.
            #expect(try await running.ctl(["like"]).stdout == [#"{"command":"like","ok":true}"#])
            let liked = try await mhz.waitFor("liked", after: second.index)
            #expect(liked.event["sid"] == second.event["sid"])
            #expect(try await running.ctl(["volume", "40"]).stdout == [#"{"command":"volume 40","ok":true}"#])
            #expect(try await running.ctl(["toggle"]).stdout == [#"{"command":"toggle","ok":true}"#])
            _ = try await mhz.waitFor("paused", after: liked.index)
            let paused = try await running.ctl(["status"])
            let pausedObject = try #require(try JSONSerialization.jsonObject(with: Data(paused.stdout[0].utf8)) as? [String: Any])
            #expect(pausedObject["paused"] as? Bool == true)
            #expect(pausedObject["volume"] as? Int == 40)
            let seek = try await running.ctl(["seek", "-10"])
            #expect(seek.stdout == [#"{"command":"seek -10","ok":true}"#], "\(seek.stderr)")
            #expect(try await running.ctl(["channel", "-3"]).stdout == [#"{"command":"channel -3","ok":true}"#])

            // A word that is not a command: exit 1, one line saying what and which words exist.
            let bad = try await running.ctl(["rewind"])
            #expect(bad.status == 1)
            #expect(bad.stdout.isEmpty)
            #expect(bad.stderr.hasPrefix("mhz: there is no command “rewind” — commands are: pause, resume, toggle, skip,"))
            #expect(bad.stderr.hasSuffix(", sleep <90s|30m|1h|off>, quit, follow\n"))
            #expect(bad.stderr.filter { $0 == "\n" }.count == 1)

            // quit through ctl: answered, mhz exits 0 and its socket is gone.
            let socket = try running.socketPath()
            #expect(try await running.ctl(["quit"]).stdout == [#"{"command":"quit","ok":true}"#])
            #expect(try await mhz.exit() == 0)
            #expect(!FileManager.default.fileExists(atPath: socket))
            // The two ctl statuses were answered to ctl alone: stdout, read to its end now
            // that mhz exited, has no status among its events.
            #expect(!mhz.events.contains { $0.name == "status" }, "a ctl status is not narrated to stdout")
        }
    }

    @Test func ctlWithNoMhzRunningSaysSoInOneLine() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-ctl-none")
        let process = try BuiltMhz(["ctl", "--data-dir", home.path("data").path, "skip"],
                                     environment: ["XDG_RUNTIME_DIR": home.url.path])
        process.closeInput()
        #expect(try await process.exit() == 1)
        #expect(process.lines.isEmpty)
        let expected = "mhz: no mhz is playing from \(home.path("data").path) (no control socket at \(home.url.path)/mhz/mhz-"
        #expect(process.stderr.hasPrefix(expected), "\(process.stderr)")
        #expect(process.stderr.hasSuffix(".sock): start one with mhz or mhz --headless, or give ctl the same --data-dir\n"))
    }

    @Test func aSecondMhzIsRefusedAndAKilledOnesSocketIsReplaced() async throws {
        try await Running.with { running in
            _ = try await running.mhz.waitFor("playing")
            let socket = try running.socketPath()

            // A second mhz on the same data directory stops before it plays, in one line.
            let second = try BuiltMhz(["--headless", "--server", running.station.url.absoluteString,
                                                    "--audio-output", "null", "--data-dir", running.dataDirectory],
                                        environment: running.environment)
            second.closeInput()
            #expect(try await second.exit() == 1)
            #expect(second.stderr == "mhz: another mhz is already playing from \(running.dataDirectory) (its control "
                + "socket is \(socket)): control it with mhz ctl, quit it, or start this one with another --data-dir\n")
            #expect(second.lines.isEmpty)

            // Killed: the socket file stays behind, and the next mhz replaces it.
            running.mhz.signal(SIGKILL)
            _ = try await running.mhz.exit()
            #expect(FileManager.default.fileExists(atPath: socket))
            let third = try BuiltMhz(["--headless", "--server", running.station.url.absoluteString,
                                                   "--audio-output", "null", "--data-dir", running.dataDirectory],
                                       environment: running.environment)
            _ = try await third.waitFor("playing")
            let status = try await running.ctl(["status"])
            #expect(status.status == 0, "\(status.stderr)")
            third.send("quit")
            #expect(try await third.exit() == 0)
        }
    }

    @Test func idleGarbageAndHugeClientsDoNotDisturbOthers() async throws {
        try await Running.with { running in
            let mhz = running.mhz
            let first = try await mhz.waitFor("playing")
            let socket = try running.socketPath()

            let idle = try ControlClient(path: socket)
            let follower = try ControlClient(path: socket)
            try follower.send("follow")
            #expect(try await follower.line() == #"{"command":"follow","ok":true}"#)

            // Garbage: bytes that are not UTF-8, a NUL, a line of 1 MB. Each line gets one
            // answer; the connection stays usable.
            let garbage = try ControlClient(path: socket)
            try garbage.write([0xFF, 0xFE, 0x00, 0x41, 0x0A])
            let notUTF8 = try await garbage.object()
            #expect(notUTF8["ok"] as? Bool == false)
            #expect((notUTF8["error"] as? String)?.hasPrefix("there is no command") == true)
            try garbage.write(Array(repeating: UInt8(ascii: "x"), count: 1 << 20) + [0x0A])
            #expect(try await garbage.line() == #"{"error":"it is longer than 4096 bytes, so it was skipped","ok":false}"#)
            try garbage.send("status")
            #expect(try await garbage.object()["event"] as? String == "status")

            // Two clients command while the others hang about: both answered, in order.
            let one = try ControlClient(path: socket), two = try ControlClient(path: socket)
            try one.send("volume 55")
            try two.send("skip")
            #expect(try await one.line() == #"{"command":"volume 55","ok":true}"#)
            #expect(try await two.line() == #"{"command":"skip","ok":true}"#)

            // The follower got the same lines headless stdout printed for the skip. The song
            // playing before may reach the follower after it followed (stdout and the control
            // socket are told apart, and a busy machine lets stdout run ahead), so the lines
            // are read to the skip's own event, then to the next song's.
            var followed = try await follower.lines(until: "skipped")
            followed += try await follower.lines(until: "playing")
            let skipped = try await mhz.waitFor("skipped", after: first.index)
            let playing = try await mhz.waitFor("playing", after: skipped.index)
            let stdout = mhz.lines
            try #require(stdout.count == mhz.events.count, "every stdout line is an event")
            #expect(followed.contains(stdout[skipped.index]))
            #expect(followed.last == stdout[playing.index])

            // The idle client is still connected and served when it finally speaks.
            try idle.send("status")
            #expect(try await idle.object()["volume"] as? Int == 55)
        }
    }

    @Test func ctlFollowPrintsEventsUntilMhzQuits() async throws {
        try await Running.with { running in
            let mhz = running.mhz
            let first = try await mhz.waitFor("playing")
            // `--follow status`: the status answer is printed once ctl follows, so every
            // event after it reaches ctl.
            let follow = try BuiltMhz(["ctl", "--data-dir", running.dataDirectory, "--follow", "status"],
                                        environment: running.environment)
            _ = try await follow.waitFor("status")
            mhz.send("trash")
            let trashed = try await mhz.waitFor("trashed", after: first.index)
            let next = try await mhz.waitFor("playing", after: trashed.index)
            mhz.send("quit")
            #expect(try await mhz.exit() == 0)
            // mhz quitting ends the stream: ctl exits 0 with the lines stdout had.
            #expect(try await follow.exit() == 0)
            let stdout = mhz.lines
            try #require(stdout.count == mhz.events.count, "every stdout line is an event")
            #expect(follow.lines.contains(stdout[trashed.index]))
            #expect(follow.lines.contains(stdout[next.index]))
        }
    }
}
