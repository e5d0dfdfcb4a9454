import Foundation
import Testing
import TestSupport

/// `mhz serve` reads `[live]` from the configuration file: a channel named in `always` is on
/// the air from the start, before anyone asks for it, and a bad value stops the command
/// with one line naming the key.
@Suite("mhz serve [live]")
struct LiveServeTests {
    @Test("always = [1] broadcasts channel 1 from the start; stderr holds the serving line and nothing of FFmpeg's")
    func alwaysOnTheAir() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-serve-live")
        let config = home.path("config.toml")
        try "[live]\nalways = [1]\nlookback = \"1h30m\"\n".write(to: config, atomically: true, encoding: .utf8)
        let music = try await LiveFixtures.library
        let data = home.path("data")
        let server = try BuiltMhz(["serve", "--config", config.path, "--data-dir", data.path, "--port", "0",
                                   "--library", music.path],
                                  home: home.url, environment: ["MHZ_LOG_LEVEL": "notice"])
        defer { server.kill() }
        let base = try await server.servedURL()
        #expect(try await LiveFixtures.channel(base) == "1")
        // Segments are written with nobody asking for the channel.
        let list = data.appendingPathComponent("station/live/1/segments.jsonl")
        try await waitUntil("channel 1 on the air", within: .seconds(30)) {
            ((try? String(contentsOf: list, encoding: .utf8)) ?? "").split(separator: "\n").count >= 3
        }
        let playlist = try await HTTPFetch.get(base, "/live/1/64.m3u8")
        #expect(playlist.status == 200 && playlist.text.contains("#EXTINF:2.0"), "\(playlist.text)")
        server.terminate()
        #expect(try await server.exit() == 0)
        #expect(server.stderr == "mhz: serving 3 songs from \(music.path) on \(base.absoluteString)\n")
    }

    @Test("lookback = \"forever\" is refused with one line naming the key and what it takes")
    func badLookback() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-serve-live-bad")
        let config = home.path("config.toml")
        try "[live]\nlookback = \"forever\"\n".write(to: config, atomically: true, encoding: .utf8)
        let server = try BuiltMhz(["serve", "--config", config.path, "--data-dir", home.path("data").path, "--port", "0"],
                                  home: home.url)
        defer { server.kill() }
        #expect(try await server.exit() == 1)
        #expect(server.stderr.contains("\"lookback\" in [live] must be a length of time such as \"2h\", \"90m\" or \"45s\""),
                "\(server.stderr)")
        #expect(server.stderr.split(separator: "\n").count == 1, "\(server.stderr)")
    }
}
