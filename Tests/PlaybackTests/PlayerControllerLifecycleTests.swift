import Foundation
import Playback
import Testing

/// Replacing items, failing URLs, bad options and shutdown, against real libmpv.
@Suite("PlayerController lifecycle")
struct PlayerControllerLifecycleTests {
    @Test("loading B while A plays finishes A as stopped, then starts B")
    func loadReplacesPlayingItem() async throws {
        let fixture = try await PlaybackFixture(media: ["a.mp3": 10, "b.ogg": 10])
        let a = try fixture.player.load(fixture.url("a.mp3"))
        _ = try await fixture.events.started(a)
        _ = try await fixture.events.progress(a)
        let replaceIndex = fixture.events.cursor

        let b = try fixture.player.load(fixture.url("b.ogg"))
        #expect(a != b)
        #expect(try await fixture.events.finished(a) == .stopped)
        _ = try await fixture.events.started(b)
        _ = try await fixture.events.progress(b)

        let after = fixture.events.events(from: replaceIndex)
        let finishedA = try #require(after.firstIndex(of: .finished(a, .stopped)))
        let startedB = try #require(after.firstIndex { if case .started(b, _) = $0 { true } else { false } })
        #expect(finishedA < startedB, "\(after)")
        // Nothing about A after its end.
        #expect(after[(finishedA + 1)...].allSatisfy { $0.itemID != a })
    }

    @Test("an item replaced before mpv began it still gets finished(.stopped)")
    func replacedBeforeStart() async throws {
        let fixture = try await PlaybackFixture(media: ["a.mp3": 5, "b.mp3": 5])
        let a = try fixture.player.load(fixture.url("a.mp3"))
        let b = try fixture.player.load(fixture.url("b.mp3"))

        #expect(try await fixture.events.finished(a) == .stopped)
        _ = try await fixture.events.started(b)
        #expect(fixture.events.all.filter { $0.itemID == a }.count == 1, "\(fixture.events.all)")
    }

    @Test("a 404 finishes as unavailable with the status instead of hanging, and the player goes on")
    func missingURLFinishesWithError() async throws {
        let fixture = try await PlaybackFixture(media: ["tone.mp3": 3])
        let missing = try fixture.player.load(fixture.url("missing.mp3"))

        let reason = try await fixture.events.finished(missing)
        #expect(reason == .mediaUnavailable(status: 404), "\(fixture.events.all)")
        #expect(!fixture.events.all.contains { if case .started(missing, _) = $0 { true } else { false } })
        #expect(fixture.gets("missing.mp3").count >= 1)

        let good = try fixture.player.load(fixture.url("tone.mp3"))
        _ = try await fixture.events.started(good)
        _ = try await fixture.events.progress(good)
    }

    @Test("an option mpv does not know is rejected with its name and mpv's reason")
    func unknownOptionRejected() {
        let options = PlayerOptions(audioOutput: "null", extraOptions: [("no-such-option", "1")])
        #expect(throws: PlaybackError.optionRejected(name: "no-such-option", message: "option not found")) {
            _ = try PlayerController(options: options)
        }
    }

    @Test("shutdown ends the event stream after finishing the item, and is idempotent")
    func shutdownFinishesStream() async throws {
        let fixture = try await PlaybackFixture(media: ["tone.mp3": 10])
        let id = try fixture.player.load(fixture.url("tone.mp3"))
        _ = try await fixture.events.started(id)

        fixture.player.shutdown()
        try await fixture.events.waitForStreamEnd()
        let all = fixture.events.all
        #expect(all.last == .shutdown)
        #expect(all.filter { $0 == .shutdown }.count == 1)
        #expect(all.dropLast().last == .finished(id, .stopped))

        fixture.player.shutdown()  // a second call returns and does no harm
        #expect(throws: PlaybackError.shutDown) { try fixture.player.load(fixture.url("tone.mp3")) }
        #expect(throws: PlaybackError.shutDown) { try fixture.player.pause() }
        #expect(fixture.player.position == nil)
        #expect(fixture.player.volume == 100)
    }

    @Test("shutdown from several tasks at once")
    func concurrentShutdown() async throws {
        let player = try PlayerController(options: PlayerOptions(audioOutput: "null", initialVolume: 70))
        let collector = EventCollector(player.events)
        #expect(player.volume == 70)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { player.shutdown() } }
        }
        try await collector.waitForStreamEnd()
        #expect(collector.all == [.shutdown])
        #expect(player.volume == 70)
    }
}
