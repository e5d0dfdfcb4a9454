import Foundation
import Station
import TestSupport
import Testing

/// The station goes away mid-song and comes back: what the listener did meanwhile reaches
/// it once, in order, and playback resumes by itself.
@Suite(.serialized)
struct OfflineRadioTests {
    /// A station that can be stopped and started again on the same address, recording what
    /// it receives, and a headless mhz listening to it.
    struct World {
        let stationData: TemporaryDirectory
        let clientData: TemporaryDirectory
        let log = Locked<[StationRequest]>([])
        let seed: UInt64
        let first: Station
        let port: Int
        let mhz: BuiltMhz

        /// Starts the station (songs chosen by `seed`) and mhz listening to it.
        init(seed: UInt64) async throws {
            self.seed = seed
            stationData = try TemporaryDirectory(prefix: "mhz-e2e-offline-station")
            clientData = try TemporaryDirectory(prefix: "mhz-e2e-offline-client")
            // The demo library as a first start leaves it: these tests are not about that start.
            try await DemoSeed.copy(to: stationData.path("demo-library"))
            let log = self.log, directory = stationData.url
            first = try await Station(configuration: Self.configuration(directory, port: 0, seed: seed, log: log))
            let url = try await first.start()
            port = try #require(url.port)
            mhz = try BuiltMhz([
                "--headless", "--server", url.absoluteString, "--audio-output", "null", "--data-dir", clientData.url.path,
            ], environment: ["XDG_CONFIG_HOME": clientData.url.path])
        }

        /// The station again, on the address it had, over the same data.
        func restartStation() async throws -> Station {
            let second = try await Station(configuration: Self.configuration(stationData.url, port: port, seed: seed, log: log))
            _ = try await second.start()
            return second
        }

        /// Runs `body` with a new world of `seed`; then kills mhz (when it has not quit) and
        /// stops the first station, however `body` ended. A station `body` restarts is
        /// its own to stop.
        static func with(seed: UInt64, _ body: (World) async throws -> Void) async throws {
            let world = try await World(seed: seed)
            try await withCleanup({ try await world.mhz.whileRunning { _ in try await body(world) } },
                                  cleanup: { await world.first.stop() })
        }

        /// Likes the song playing now and waits until the station has that like. Reports
        /// go out on one line, in order, and a retry resends only its head: once this like
        /// arrived, no report made before it can arrive again, whatever the retry schedule.
        func likeGoesThrough() async throws {
            let from = mhz.events.count
            mhz.send("like")
            let liked = try await mhz.waitFor("liked", after: from)
            let sid = try #require(liked.event["sid"])
            #expect(await eventually(within: .seconds(60)) {
                log.value.contains { $0.path == "/j/app/radio/people" && $0.parameter("type") == "r" && $0.parameter("sid") == sid }
            }, "the like of \(sid) reached the station")
        }

        private static func configuration(_ directory: URL, port: Int, seed: UInt64,
                                          log: Locked<[StationRequest]>) -> StationConfiguration {
            StationConfiguration(library: nil, dataDirectory: directory, port: port, seed: seed,
                                 onRequest: { request in log.withLock { $0.append(request) } })
        }
    }

    @Test func likesAndTrashesMadeWhileTheStationIsDownArriveOnceInOrder() async throws {
        try await World.with(seed: 3) { world in
            let (first, mhz, log) = (world.first, world.mhz, world.log)
            let playing = try await mhz.waitFor("playing")
            let sid = try #require(playing.event["sid"])

            // The station goes away mid-song.
            await first.stop()
            log.withLock { $0.removeAll() }
            mhz.send("like")
            let liked = try await mhz.waitFor("liked", after: playing.index)
            #expect(liked.event["sid"] == sid)
            mhz.send("trash")
            let trashed = try await mhz.waitFor("trashed", after: liked.index)
            #expect(trashed.event["sid"] == sid)
            _ = try await mhz.waitFor("error", after: playing.index) { ($0["message"] ?? "").contains("unreachable") }
            mhz.send("status")
            let waiting = try await mhz.waitFor("status", after: trashed.index)
            #expect(waiting.event["sid"] == nil || waiting.event["sid"] != sid, "the trashed song is not playing")

            // It comes back on the same address.
            let second = try await world.restartStation()
            try await withCleanup {
                // The next song plays (it may have started at once, from what the player had
                // fetched ahead while the trashed one played, before the station came back).
                let resumed = try await mhz.waitFor("playing", after: trashed.index, timeout: 60)
                #expect(resumed.event["sid"] != sid)

                // The like and the trash reach it exactly once each, in that order, once the
                // outbox's next retry finds it back.
                func feedback() -> [StationRequest] {
                    log.value.filter { $0.path == "/j/app/radio/people" && ["r", "b"].contains($0.parameter("type")) }
                }
                _ = await eventually(within: .seconds(60)) { feedback().count >= 2 }
                try await world.likeGoesThrough()
                let feedback = feedback().filter { $0.parameter("sid") == sid }
                #expect(feedback.map { "\($0.parameter("type") ?? "?") \($0.parameter("sid") ?? "?")" } == ["r \(sid)", "b \(sid)"])
                #expect(feedback.last?.parameter("h")?.hasSuffix("|\(sid):r|\(sid):b") == true)

                mhz.send("quit")
                #expect(try await mhz.exit() == 0)
            } cleanup: {
                await second.stop()
            }
        }
    }

    @Test func theSongPlaysToItsEndWhileTheStationIsDownAndPlaybackGoesOnWhenItReturns() async throws {
        try await World.with(seed: 5) { world in
            let (first, mhz, log) = (world.first, world.mhz, world.log)
            let playing = try await mhz.waitFor("playing")
            let sid = try #require(playing.event["sid"])
            let length = try #require(playing.event.number("length"))
            // Near the end, so the natural end comes soon; once it plays on from there, mpv has
            // the few seconds left of the song cached.
            mhz.send("seek \(Int(length) - 4)")
            _ = try await mhz.status(after: playing.index + 1, within: .seconds(30)) {
                ($0.number("position") ?? 0) >= length - 3.6
            }

            await first.stop()
            log.withLock { $0.removeAll() }
            let ended = try await mhz.waitFor("ended", after: playing.index, timeout: 30)
            #expect(ended.event["sid"] == sid, "the song played to its end with the station down")

            // The status says the station is unreachable and when it is tried again.
            let down = try await mhz.status(after: ended.index, within: .seconds(30)) {
                ($0["status_text"] ?? "").contains("unreachable") && ($0["status_text"] ?? "").contains("Next try at")
            }
            let text = down.event["status_text"] ?? ""
            #expect(text.contains("Station unreachable") && text.contains("Next try at"), "status said: \(text)")

            // It comes back on the same address: the `e` arrives once, and the radio plays on
            // by itself (a song whose position advances, the complaint gone).
            let second = try await world.restartStation()
            try await withCleanup {
                func ends() -> [StationRequest] {
                    log.value.filter { $0.path == "/j/app/radio/people" && $0.parameter("type") == "e" }
                }
                var playingAgain = false
                var last: (sid: String, position: Double)?
                _ = try await mhz.status(after: down.index + 1, within: .seconds(60)) { answer in
                    let now = (answer["sid"] ?? "", answer.number("position") ?? 0)
                    let calm = !(answer["status_text"] ?? "").contains("unreachable")
                    if let last, !now.0.isEmpty, now.0 == last.sid, now.1 > last.position, calm { playingAgain = true }
                    last = (now.0, now.1)
                    return playingAgain && !ends().isEmpty
                }
                #expect(playingAgain, "playback goes on by itself once the station answers; last status \(String(describing: last))")
                try await world.likeGoesThrough()
                #expect(ends().map { $0.parameter("sid") } == [sid], "the natural end is reported once")

                mhz.send("quit")
                #expect(try await mhz.exit() == 0)
            } cleanup: {
                await second.stop()
            }
        }
    }
}
