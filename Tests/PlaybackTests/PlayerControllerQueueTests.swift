import Foundation
import Playback
import Testing

/// The queued next item against real libmpv: gapless hand-over, skips, replacing the queue.
@Suite("PlayerController queue")
struct PlayerControllerQueueTests {
    func isStarted(_ id: PlaybackItemID) -> @Sendable (PlaybackEvent) -> Bool {
        { if case .started(id, _) = $0 { true } else { false } }
    }

    @Test("a queued item is prefetched and starts with its own id right after the current one's eof")
    func gaplessHandOver() async throws {
        let fixture = try await PlaybackFixture(media: ["a.mp3": 2.5, "b.ogg": 3])
        let a = try fixture.player.load(fixture.faulty.url("a.mp3"))
        let b = try fixture.player.queueNext(fixture.faulty.url("b.ogg"))
        #expect(a != b)

        _ = try await fixture.events.started(a)
        #expect(try await fixture.events.finished(a, timeout: .seconds(15)) == .eof)
        let duration = try #require(try await fixture.events.started(b))
        #expect(abs(duration - 3) < 0.2)
        _ = try await fixture.events.progress(b)
        #expect(try await fixture.events.finished(b, timeout: .seconds(15)) == .eof)

        let all = fixture.events.all
        let finishedA = try #require(all.firstIndex(of: .finished(a, .eof)))
        let startedB = try #require(all.firstIndex(where: isStarted(b)))
        #expect(finishedA < startedB)
        // Nothing of A after its end, nothing of B before A's end, nothing stopped.
        #expect(all[..<finishedA].allSatisfy { $0.item != b }, "\(all)")
        #expect(all[(finishedA + 1)...].allSatisfy { $0.item != a }, "\(all)")
        #expect(!all.contains { if case .finished(_, .stopped) = $0 { true } else { false } })
        // Prefetched: B was requested while A was still playing.
        let bRequest = try #require(fixture.faulty.requests(to: "/b.ogg").first)
        let times = fixture.events.times
        #expect(bRequest.time < times[finishedA], "B was fetched only after A ended")
        // B was prefetched, so the hand-over is mpv switching demuxers already open: its
        // events come together. A second between them would be a gap anyone hears (and is
        // a bound a busy 2-core machine still keeps; typically a few milliseconds here).
        let gap = times[finishedA].duration(to: times[startedB])
        #expect(gap < .seconds(1), "finished(A) → started(B) seen \(gap) apart")
    }

    @Test("advance skips to the queued item at once: the current one stops, the queued one starts")
    func advanceSkips() async throws {
        let fixture = try await PlaybackFixture(media: ["a.mp3": 10, "b.mp3": 10])
        let a = try fixture.player.load(fixture.url("a.mp3"))
        let b = try fixture.player.queueNext(fixture.url("b.mp3"))
        _ = try await fixture.events.started(a)
        _ = try await fixture.events.progress(a)

        let skipped = ContinuousClock.now
        #expect(try fixture.player.advance() == b)
        #expect(try await fixture.events.finished(a) == .stopped)
        _ = try await fixture.events.started(b)
        let position = try await fixture.events.progress(b)
        #expect(position < 1.5, "B starts from its beginning, got \(position)")
        print("advance → started(B) seen after \(ContinuousClock.now - skipped)")

        #expect(throws: PlaybackError.nothingQueued) { try fixture.player.advance() }
        #expect(fixture.events.all.filter { $0 == .finished(a, .stopped) }.count == 1)
    }

    @Test("queueNext replaces an item queued earlier, which finishes as stopped without starting")
    func queueReplacesQueued() async throws {
        let fixture = try await PlaybackFixture(media: ["a.mp3": 10, "b.mp3": 3, "c.ogg": 3])
        let a = try fixture.player.load(fixture.url("a.mp3"))
        _ = try await fixture.events.started(a)
        let b = try fixture.player.queueNext(fixture.url("b.mp3"))
        let c = try fixture.player.queueNext(fixture.url("c.ogg"))

        #expect(try await fixture.events.finished(b) == .stopped)
        #expect(try fixture.player.advance() == c)
        #expect(try await fixture.events.finished(a) == .stopped)
        _ = try await fixture.events.started(c)
        #expect(!fixture.events.all.contains(where: isStarted(b)))
    }

    @Test("queueNext with nothing playing starts the item at once")
    func queueWhenIdlePlays() async throws {
        let fixture = try await PlaybackFixture(media: ["a.mp3": 3])
        let a = try fixture.player.queueNext(fixture.url("a.mp3"))
        _ = try await fixture.events.started(a)
        _ = try await fixture.events.progress(a)
    }

    @Test("load replaces the queue too: playing and queued items finish as stopped before the new one starts")
    func loadReplacesQueue() async throws {
        let fixture = try await PlaybackFixture(media: ["a.mp3": 10, "b.mp3": 10, "c.mp3": 3])
        let a = try fixture.player.load(fixture.url("a.mp3"))
        let b = try fixture.player.queueNext(fixture.url("b.mp3"))
        _ = try await fixture.events.started(a)
        let c = try fixture.player.load(fixture.url("c.mp3"))
        _ = try await fixture.events.started(c)

        let all = fixture.events.all
        let startedC = try #require(all.firstIndex(where: isStarted(c)))
        let finishedA = try #require(all.firstIndex(of: .finished(a, .stopped)))
        let finishedB = try #require(all.firstIndex(of: .finished(b, .stopped)))
        #expect(finishedA < startedC && finishedB < startedC, "\(all)")
        #expect(!all.contains(where: isStarted(b)))
    }

    @Test("clearQueued takes the queued item back: it finishes as stopped and nothing follows the current one")
    func clearQueuedDropsTheNextItem() async throws {
        let fixture = try await PlaybackFixture(media: ["a.mp3": 2.5, "b.mp3": 3])
        let a = try fixture.player.load(fixture.url("a.mp3"))
        let b = try fixture.player.queueNext(fixture.url("b.mp3"))
        _ = try await fixture.events.started(a)
        try fixture.player.clearQueued()
        #expect(try await fixture.events.finished(b) == .stopped)
        #expect(try await fixture.events.finished(a, timeout: .seconds(15)) == .eof)
        // A volume change after a's end: mpv would have started b before it handles this.
        try fixture.player.setVolume(37)
        try await fixture.events.next("volume(37)") { $0 == .volume(37) }
        #expect(!fixture.events.all.contains(where: isStarted(b)), "\(fixture.events.all)")
        #expect(throws: PlaybackError.nothingQueued) { try fixture.player.advance() }
        try fixture.player.clearQueued()  // nothing queued: nothing happens
    }

    @Test("a queued item starts where queueNext asked, after a hand-over and after advance")
    func queuedItemStartsAtItsPosition() async throws {
        let fixture = try await PlaybackFixture(media: ["a.mp3": 2, "b.mp3": 12, "c.mp3": 12])
        let a = try fixture.player.load(fixture.url("a.mp3"))
        let b = try fixture.player.queueNext(fixture.url("b.mp3"), startAt: 6)
        _ = try await fixture.events.started(a)
        #expect(try await fixture.events.finished(a, timeout: .seconds(15)) == .eof)
        _ = try await fixture.events.started(b)
        let atB = try await fixture.events.progress(b)
        #expect(abs(atB - 6) < 1, "B started at \(atB) s")
        let c = try fixture.player.queueNext(fixture.url("c.mp3"), startAt: 4)
        #expect(try fixture.player.advance() == c)
        _ = try await fixture.events.started(c)
        let atC = try await fixture.events.progress(c)
        #expect(abs(atC - 4) < 1, "C started at \(atC) s")
    }
}
