import Foundation
import Store
import TestSupport
import Testing

/// The sleep timer through the built mhz against the test station: `--sleep` sets it from
/// the start and the status line tells the time left; `sleep 2s` fades in ten steps to
/// silence, and mhz exits 0 with the song's position saved.
@Suite(.serialized)
struct SleepTimerTests {
    @Test func itFadesToSilenceThenExitsWithThePositionSaved() async throws {
        try await HeadlessRadioTests.LiveStation.with { station in
            let home = try TemporaryDirectory(prefix: "mhz-sleep")
            try await BuiltMhz(["--headless", "--server", station.url.absoluteString, "--audio-output", "null",
                                "--data-dir", home.path("data").path, "--channel", "0", "--sleep", "1h"],
                               environment: ["HOME": home.url.path, "XDG_CONFIG_HOME": home.path("config").path])
                .whileRunning { mhz in
                    let set = try await mhz.waitFor("sleep")
                    #expect(set.event.number("seconds") == 3600)
                    let playing = try await mhz.waitFor("playing", after: set.index)
                    let sid = try #require(playing.event["sid"])
                    let moved = try await mhz.status(after: playing.index) { ($0.number("position") ?? 0) >= 1 }
                    let words = try #require(moved.event["status_text"])
                    #expect(words.wholeMatch(of: /Sleep in (59:[0-5]\d|1:00:00)\./) != nil, "\(words)")

                    mhz.send("sleep 2s")
                    let short = try await mhz.waitFor("sleep", after: moved.index) { $0.number("seconds") == 2 }
                    #expect(try await mhz.exit(timeout: 30) == 0)
                    let fades = mhz.events[short.index...].filter { $0.name == "fading" }.compactMap { $0.number("volume") }
                    #expect(fades == [90, 80, 70, 60, 50, 40, 30, 20, 10, 0])
                    #expect(!mhz.events[short.index...].contains { $0.name == "error" }, "\(mhz.lines)")

                    let database = try MhzDatabase(path: home.path("data").appendingPathComponent("mhz.sqlite"))
                    let saved = try #require(try database.lastPosition())
                    #expect(saved.sid == sid)
                    #expect(saved.position >= 1, "\(saved.position)")
                    let listen = try #require(try database.listens(limit: 1).first)
                    #expect(listen.sid == sid && listen.outcome == "quit")

                    let bad = try await BuiltMhz.run(["--headless", "--sleep", "soon"], home: home.url)
                    #expect(bad.status == 2)
                    #expect(bad.stderr.contains("--sleep takes a time like 90s, 30m or 1h, at most 8760h, not \"soon\""), "\(bad.stderr)")
                }
        }
    }
}
