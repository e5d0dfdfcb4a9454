import Foundation
import Station
import TestSupport
import Testing

/// Offline listening end to end: songs downloaded from a real station with `mhz download`,
/// the station gone, and `mhz` playing them, saying so on its status line.
@Suite(.serialized)
struct OfflineListeningTests {
    @Test func songsDownloadedFromTheStationPlayWhenItIsGone() async throws {
        let stationData = try TemporaryDirectory(prefix: "mhz-e2e-offline-dl-station")
        let client = try TemporaryDirectory(prefix: "mhz-e2e-offline-dl-client")
        try await DemoSeed.copy(to: stationData.path("demo-library"))
        let station = try await Station(configuration: StationConfiguration(library: nil, dataDirectory: stationData.url,
                                                                            port: 0, seed: 11))
        let url = try await station.start()
        let environment = ["HOME": client.url.path, "XDG_CONFIG_HOME": client.path("config").path]
        let common = ["--server", url.absoluteString, "--data-dir", client.path("data").path]

        let download = try BuiltMhz(["download", "--channel", "0", "--count", "2", "--json"] + common,
                                      environment: environment)
        download.closeInput()
        let status = try await withCleanup { try await download.exit(timeout: 120) } cleanup: { await station.stop() }
        #expect(status == 0, "\(download.stderr)")
        let completed = download.events.filter { $0.name == "download" && $0["state"] == "completed" }
        let sids = Set(completed.compactMap { $0["sid"] })
        #expect(sids.count == 2, "\(download.lines)")
        for event in completed {
            let path = try #require(event["path"])
            #expect(FileManager.default.fileExists(atPath: path))
            #expect(path.hasPrefix(client.path("data/downloads/").path))
        }

        // The station is gone: mhz plays a downloaded song and says why.
        let mhz = try BuiltMhz(["--headless", "--audio-output", "null", "--channel", "0"] + common,
                                 environment: environment)
        let fallback = try await mhz.waitFor("source", timeout: 60) { $0["source"] == "fallback" }
        #expect(fallback.event["channel"] == "0")
        let playing = try await mhz.waitFor("playing", after: fallback.index, timeout: 30)
        #expect(sids.contains(playing.event["sid"] ?? "-"), "\(mhz.lines)")
        mhz.send("status")
        let shown = try await mhz.waitFor("status", after: playing.index)
        #expect(shown.event["status_text"]?.hasPrefix("Offline: the station is unreachable, so downloaded songs play") == true,
                "\(shown.event.fields)")
        // A like made offline waits in the outbox for the station (the count follows the
        // outbox's write, so it is asked until it shows).
        mhz.send("like")
        let liked = try await mhz.waitFor("liked", after: shown.index)
        let pending = try await mhz.status(after: liked.index) { $0.number("pending_reports") == 1 }
        #expect(pending.event["sid"] == playing.event["sid"], "\(mhz.lines.suffix(5))")
        mhz.send("quit")
        #expect(try await mhz.exit() == 0)

        // The offline channel, chosen: the same songs, with no station asked for lists.
        let offline = try BuiltMhz(["--headless", "--audio-output", "null", "--channel", "offline"] + common,
                                     environment: environment)
        let chosen = try await offline.waitFor("source", timeout: 30) { $0["source"] == "offline" }
        let song = try await offline.waitFor("playing", after: chosen.index, timeout: 30)
        #expect(sids.contains(song.event["sid"] ?? "-"))
        #expect(song.event["channel"] == "offline")
        offline.send("quit")
        #expect(try await offline.exit() == 0)
    }

    @Test func theTerminalUIsStatusLineSaysItIsOffline() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-e2e-offline-tui")
        let served = try TemporaryDirectory(prefix: "mhz-e2e-offline-tui-served")
        try MediaFactory.tone(at: served.path("tone.mp3"), seconds: 30)
        let server = try FaultyMediaServer(root: served.url)
        let data = home.path("data")
        let get = try BuiltMhz(["download", server.url("tone.mp3"), "--data-dir", data.path],
                                 environment: ["HOME": home.url.path, "XDG_CONFIG_HOME": home.path("config").path])
        get.closeInput()
        #expect(try await get.exit(timeout: 60) == 0, "\(get.stderr)")
        server.stop()
        // Port 9 on loopback: nothing listens, every request is refused.
        let terminal = try TerminalMhz(["--audio-output", "null", "--server", "http://127.0.0.1:9", "--data-dir", data.path],
                                       home: home.url, columns: 100)
        try await terminal.waitForScreen(containing: "Offline: the station is unreachable", within: .seconds(60))
        // The status line can come a moment before the song's title is drawn.
        try await terminal.waitForScreen(containing: "tone")
        try terminal.send("D")
        try await terminal.waitForScreen(containing: "Downloads")
        let screen = try terminal.capture()
        #expect(screen.contains { $0.contains("> tone") && $0.contains("completed") }, "\(screen.joined(separator: "\n"))")
        try terminal.send("q", "q")
        #expect(try await terminal.exitStatus() == 0, "\(terminal.screen)")
    }

    @Test func withDownloadsLikedALikeDownloadsTheSongAndDDownloadsItTooHeadless() async throws {
        let stationData = try TemporaryDirectory(prefix: "mhz-e2e-liked-station")
        let client = try TemporaryDirectory(prefix: "mhz-e2e-liked-client")
        try await DemoSeed.copy(to: stationData.path("demo-library"))
        let station = try await Station(configuration: StationConfiguration(library: nil, dataDirectory: stationData.url,
                                                                            port: 0, seed: 5))
        try await withCleanup {
            try await Self.likedDownloads(station: station, url: try await station.start(), client: client)
        } cleanup: {
            await station.stop()
        }
        stationData.remove()
    }

    /// The body of ``withDownloadsLikedALikeDownloadsTheSongAndDDownloadsItTooHeadless()``,
    /// against the started `station` at `url`.
    private static func likedDownloads(station: Station, url: URL, client: TemporaryDirectory) async throws {
        let config = client.path("config/mhz/config.toml")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("[downloads]\nliked = true\n".utf8).write(to: config)
        let mhz = try BuiltMhz(["--headless", "--audio-output", "null", "--server", url.absoluteString,
                                             "--data-dir", client.path("data").path],
                                 environment: ["HOME": client.url.path, "XDG_CONFIG_HOME": client.path("config").path])
        let playing = try await mhz.waitFor("playing", timeout: 60)
        let sid = try #require(playing.event["sid"])
        mhz.send("like")
        let done = try await mhz.waitFor("download", after: playing.index, timeout: 30) {
            $0["sid"] == sid && $0["state"] == "completed"
        }
        let path = try #require(done.event["path"])
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(done.event["title"] == playing.event["title"])
        // `download` on the same song is the same task: no second file. The next song's
        // download, asked for after it, is the event that comes after.
        mhz.send("download")
        mhz.send("skip")
        let next = try await mhz.waitFor("playing", after: done.index + 1, timeout: 30)
        let nextSid = try #require(next.event["sid"])
        #expect(nextSid != sid)
        mhz.send("download")
        let nextDone = try await mhz.waitFor("download", after: next.index, timeout: 30) {
            $0["sid"] == nextSid && $0["state"] == "completed"
        }
        let folder = try FileManager.default.contentsOfDirectory(atPath: client.path("data/downloads").path).sorted()
        let expected = [path, try #require(nextDone.event["path"])].map { URL(fileURLWithPath: $0).lastPathComponent }
        #expect(folder == expected.sorted(), "\(folder)")
        mhz.send("quit")
        #expect(try await mhz.exit() == 0)
    }
}
