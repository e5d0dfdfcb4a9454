import Foundation
import TestSupport
import Testing

/// A station that ignores `b` (the test server answers every report with the same list,
/// the trashed song in it): the built mhz never starts the trashed song again, in this run
/// or the next.
struct TrashedSongTests {
    @Test func aTrashedSongNeverPlaysAgainEvenWhenTheStationSendsItBack() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        let home = try TemporaryDirectory(prefix: "mhz-trash")
        let arguments = ["--headless", "--server", server.baseURL.absoluteString, "--audio-output", "null",
                         "--data-dir", home.path("data").path, "--channel", "0"]
        let environment = ["XDG_CONFIG_HOME": home.path("config").path, "HOME": home.url.path]
        /// The trash and skip reports the server has, in order.
        func reports() -> [DoubanTestServer.Call] {
            server.calls(to: "/j/app/radio/people").filter { ["b", "s"].contains($0.parameter("type")) }
        }

        try await BuiltMhz(arguments, environment: environment).whileRunning { mhz in
            let first = try await mhz.waitFor("playing")
            let trashedSid = try #require(first.event["sid"])
            mhz.send("trash")
            let trashed = try await mhz.waitFor("trashed", after: first.index)
            #expect(trashed.event["sid"] == trashedSid)
            // Six more songs, each skipped once it plays; every list the server sends
            // (after `b` and after each `s`) holds the trashed song.
            var index = trashed.index
            var played: [String] = []
            for _ in 0..<6 {
                let playing = try await mhz.waitFor("playing", after: index)
                played.append(playing.event["sid"] ?? "")
                mhz.send("skip")
                index = try await mhz.waitFor("skipped", after: playing.index).index
            }
            #expect(!played.contains(trashedSid), "played \(played) after trashing \(trashedSid)")
            // The event comes first; its report follows through the outbox.
            _ = await eventually { reports().count >= 7 }
            let lists = reports()
            #expect(lists.filter { $0.parameter("type") == "b" }.map { $0.parameter("sid") } == [trashedSid])
            #expect(lists.count == 7)
            mhz.send("quit")
            #expect(try await mhz.exit() == 0)
        }

        // The next run remembers: its first list holds the song, which is not played.
        try await BuiltMhz(arguments, environment: environment).whileRunning { again in
            let trashedSid = try #require(server.calls(to: "/j/app/radio/people").first { $0.parameter("type") == "b" }?
                .parameter("sid"))
            var index = 0
            for _ in 0..<3 {
                let playing = try await again.waitFor("playing", after: index)
                #expect(playing.event["sid"] != trashedSid)
                again.send("skip")
                index = try await again.waitFor("skipped", after: playing.index).index
            }
            again.send("quit")
            #expect(try await again.exit() == 0)
        }
    }
}
