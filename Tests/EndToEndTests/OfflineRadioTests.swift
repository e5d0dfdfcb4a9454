import Foundation
import Station
import TestSupport
import Testing

/// The station goes away mid-song and comes back: what the listener did meanwhile reaches
/// it once, in order, and playback resumes by itself.
@Suite(.serialized)
struct OfflineRadioTests {
    @Test func likesAndTrashesMadeWhileTheStationIsDownArriveOnceInOrder() async throws {
        let stationData = try TemporaryDirectory(prefix: "mhz-e2e-offline-station")
        let log = Locked<[StationRequest]>([])
        func configuration(port: Int) -> StationConfiguration {
            StationConfiguration(library: nil, dataDirectory: stationData.url, port: port, seed: 3,
                                 onRequest: { request in log.withLock { $0.append(request) } })
        }
        let first = try await Station(configuration: configuration(port: 0))
        let url = try await first.start()
        let port = try #require(url.port)

        let data = try TemporaryDirectory(prefix: "mhz-e2e-offline-client")
        let mhz = try MhzProcess(arguments: [
            "--headless", "--server", url.absoluteString, "--audio-output", "null", "--data-dir", data.url.path,
        ], environment: ["XDG_CONFIG_HOME": data.url.path])
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
        let second = try await Station(configuration: configuration(port: port))
        _ = try await second.start()
        defer { Task { await second.stop() } }
        // The next song plays (it may have started at once, from what the player had
        // fetched ahead while the trashed one played, before the station came back).
        let resumed = try await mhz.waitFor("playing", after: trashed.index, timeout: 60)
        #expect(resumed.event["sid"] != sid)

        // The like and the trash reach it exactly once each, in that order, once the
        // outbox's next retry finds it back.
        func feedback() -> [StationRequest] {
            log.value.filter { $0.path == "/j/app/radio/people" && ["r", "b"].contains($0.parameter("type")) }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while feedback().count < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
        try await Task.sleep(for: .milliseconds(500))
        let feedback = feedback()
        #expect(feedback.map { "\($0.parameter("type") ?? "?") \($0.parameter("sid") ?? "?")" } == ["r \(sid)", "b \(sid)"])
        #expect(feedback.last?.parameter("h")?.hasSuffix("|\(sid):r|\(sid):b") == true)

        mhz.send("quit")
        #expect(try await mhz.waitForExit() == 0)
    }
}
