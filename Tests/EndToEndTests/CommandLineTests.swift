import Foundation
import Station
import TestSupport
import Testing

/// The command line's promises (man mhz's EXIT STATUS): exit 0 ok, 2 usage error, 1 runtime error with
/// one line on stderr saying what and what to do; `channels` lists the station's channels.
struct CommandLineTests {
    /// Runs `mhz` to completion with a private data and config directory.
    func run(_ arguments: [String], home: TemporaryDirectory) async throws -> (status: Int32, stdout: String, stderr: String) {
        let mhz = try BuiltMhz(arguments + ["--data-dir", home.path("data").path], home: home.url, stdin: "")
        // A first run synthesizes the demo library: seconds in a debug build, far more on a
        // machine busy with other tests.
        let status = try await mhz.exit(timeout: 120)
        return (status, mhz.lines.joined(separator: "\n"), mhz.stderr)
    }

    @Test func channelsListsTheEmbeddedStationsChannels() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-cli")
        // The demo library as a first start leaves it: the channels are the matter here.
        try await DemoSeed.copy(to: home.path("data/station/demo-library"))
        let text = try await run(["channels"], home: home)
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "0  私人兆赫")
        // The demo library's first genre, broadcast live as every public channel is.
        #expect(lines.dropFirst().first == "1  Ambient  (live)")
        #expect(lines.count >= 3, "channel 0 and at least two genre channels: \(lines)")

        let json = try await run(["channels", "--json"], home: home)
        #expect(json.status == 0)
        #expect(json.stdout.hasPrefix(#"[{"id":"0","name":"私人兆赫"},{"id":"1","live":true,"name":"Ambient"},"#),
                "\(json.stdout)")
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(objects.count == lines.count)
    }

    @Test func anUnreachableServerIsOneLineAndExitStatusOne() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-cli")
        // Port 9 (discard) on loopback: nothing listens, the connection is refused.
        let result = try await run(["channels", "--server", "http://127.0.0.1:9"], home: home)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("mhz: http://127.0.0.1:9 unreachable") == true, "\(result.stderr)")
        #expect(lines.first?.contains("check --server") == true)
    }

    /// An address this machine does not have (192.0.2.1, RFC 5737's TEST-NET-1) and a name
    /// nothing resolves (RFC 6761's `.invalid`): one line each, in words, the system's reason
    /// inside its parentheses, no Swift name, no errno or error code.
    @Test func aStationThatCannotListenSaysWhyInWords() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-cli")
        let music = home.path("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        try MediaFactory.tone(at: music.appendingPathComponent("tone.mp3"), seconds: 1)
        let reasons = [("192.0.2.1", [String(cString: strerror(EADDRNOTAVAIL))]),
                       ("no-such-host.invalid", [EAI_NONAME, EAI_AGAIN, EAI_FAIL].map { String(cString: gai_strerror($0)) })]
        for (host, words) in reasons {
            let result = try await run(["serve", "--library", music.path, "--host", host, "--port", "6123"], home: home)
            #expect(result.status == 1)
            let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("mhz: ") }
            #expect(lines.count == 1, "\(result.stderr)")
            let line = String(lines.first ?? "")
            #expect(words.contains { line.hasPrefix("mhz: the station cannot listen on \(host):6123 (\($0)): ") },
                    "\(line)")
            #expect(!line.contains("errno") && !line.contains("error -") && !line.contains("SocketAddressError")
                        && line.filter { $0 == "(" }.count == line.filter { $0 == ")" }.count, "\(line)")
        }
    }

    /// mhz's database that cannot be opened (a folder where the file belongs) is one line in
    /// words, SQLite's after them, not the Swift value of the failure.
    @Test func aDatabaseThatCannotBeOpenedIsToldInWords() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-cli")
        let database = home.path("data").appendingPathComponent("mhz.sqlite")
        try FileManager.default.createDirectory(at: database, withIntermediateDirectories: true)
        let result = try await run(["scrobble", "status"], home: home)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("mhz: ") }
        #expect(lines.count == 1, "\(result.stderr)")
        let line = String(lines.first ?? "")
        #expect(line.hasPrefix("mhz: cannot read the scrobbles waiting: cannot open \(database.path): "), "\(line)")
        #expect(line.hasSuffix(" — check the data directory"), "\(line)")
        #expect(!line.contains("cannotOpen") && !line.contains("path:") && !line.contains("reason:"), "\(line)")
    }

    @Test func usageErrorsExitTwo() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-cli")
        let unknown = try await run(["--no-such-option"], home: home)
        #expect(unknown.status == 2)
        let api = try await run(["channels", "--api", "web"], home: home)
        #expect(api.status == 2)
        #expect(api.stderr == "mhz: --api web needs --server (the embedded station speaks the app API): e.g. --server https://douban.fm\n")
        let server = try await run(["channels", "--server", "ftp://example.com"], home: home)
        #expect(server.status == 2)
        #expect(server.stderr.hasPrefix("mhz: --server ftp://example.com is not an http(s) URL"))
    }

    @Test func aBrokenConfigFileNamesTheFileAndLine() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-cli")
        let config = home.path("config/mhz/config.toml")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "volume = 50\nserver = \"http://x\nchannel = 1\n".write(to: config, atomically: true, encoding: .utf8)
        let broken = try await run(["channels"], home: home)
        #expect(broken.status == 1)
        #expect(broken.stderr.hasPrefix("mhz: config file \(config.path) line 2: "), "\(broken.stderr)")
        #expect(broken.stderr.split(separator: "\n").count == 1)

        try "volume = 50\ncolour = \"red\"\n".write(to: config, atomically: true, encoding: .utf8)
        let unknownKey = try await run(["channels"], home: home)
        #expect(unknownKey.status == 1)
        #expect(unknownKey.stderr.contains("unknown key \"colour\""), "\(unknownKey.stderr)")

        try "volume = 150\n".write(to: config, atomically: true, encoding: .utf8)
        let badValue = try await run(["channels"], home: home)
        #expect(badValue.status == 1)
        #expect(badValue.stderr.contains("\"volume\" must be a whole number from 0 to 100"))
    }

    @Test func aBadKeyBindingNamesItsLine() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-cli")
        let config = home.path("config/mhz/config.toml")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "volume = 50\n\n[keys]\nskip = \"x\"\ndance = \"d\"\n".write(to: config, atomically: true, encoding: .utf8)
        let result = try await run(["--headless", "--audio-output", "null"], home: home)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("mhz: config file \(config.path) line 5: “dance” in [keys] is neither an action nor a key"),
                "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    /// `--video` with no display to open a window on: one line that says so and what to do,
    /// before anything starts (no station, no player). An empty `DISPLAY=` is no display.
    @Test(arguments: [[:], ["DISPLAY": "", "WAYLAND_DISPLAY": ""]])
    func videoWithoutADisplayIsOneLineAndExitStatusOne(display: [String: String]) async throws {
        let home = try TemporaryDirectory(prefix: "mhz-cli")
        let mhz = try BuiltMhz(["--headless", "--video", "--audio-output", "null", "--data-dir", home.path("data").path],
                               home: home.url, environment: display, unset: ["DISPLAY", "WAYLAND_DISPLAY"], stdin: "")
        #expect(try await mhz.exit() == 1)
        let text = mhz.stderr
        #expect(text == "mhz: --video needs a graphical display, but neither DISPLAY nor WAYLAND_DISPLAY is set: "
            + "run mhz inside an X11 or Wayland session, or drop --video to listen without picture\n")
        // Refused before the embedded station started: it made no data of its own.
        #expect(!FileManager.default.fileExists(atPath: home.path("data/station").path))
    }

    @Test func withoutATerminalThePlayerAsksForHeadless() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-cli")
        let result = try await run(["--audio-output", "null"], home: home)
        #expect(result.status == 1)
        #expect(result.stderr.contains("--headless"), "\(result.stderr)")
    }
}
