import Foundation
import Testing
import TestSupport

/// `mhz serve` reads `[live]` from the configuration file: a channel named in `always` is on
/// the air from the start, before anyone asks for it, and a bad value stops the command
/// with one line naming the key; `mhz download` keeps a song aired, by `aired.json`'s link.
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

    @Test("mhz download keeps a song heard on the radio: aired.json's url of a song over is a file of that song's seconds")
    func downloadAired() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-live-download")
        defer { data.remove() }
        let station = try await LiveFixtures.station(data: data.path("station"))
        let base = try await station.start()
        try await withCleanup {
            let channel = try await LiveFixtures.channel(base)
            _ = try await LiveFixtures.waitFor(base, channel, "two songs") { Set($0.entries.map(\.title)).count >= 2 }
            let songs = try await HTTPFetch.get(base, "/live/\(channel)/aired.json").jsonObject()["songs"] as? [[String: Any]] ?? []
            let over = try #require(songs.first { $0["on_air"] as? Bool == false })
            let url = try #require(over["url"] as? String)
            let seconds = Double(((over["end"] as? NSNumber)?.int64Value ?? 0) - ((over["start"] as? NSNumber)?.int64Value ?? 0)) / 1000
            let download = try BuiltMhz(["download", "--data-dir", data.path("mhz").path, url], home: data.url)
            defer { download.kill() }
            #expect(try await download.exit() == 0, "\(download.stderr)")
            let folder = data.path("mhz/downloads")
            let file = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".ts") })
            let probe = try await offPool {
                try Tool.run("ffprobe", ["-v", "warning", "-show_entries", "format=duration", "-of", "csv=p=0",
                                         folder.appendingPathComponent(file).path])
            }
            #expect(probe.errors.isEmpty, "\(probe.errors)")
            // Whole segments: the song's seconds, and at most a segment more on each side.
            let duration = Double(probe.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            #expect(duration >= seconds - 0.05 && duration <= seconds + 2.1, "\(duration) for \(seconds)")
        } cleanup: {
            await station.stop()
        }
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
