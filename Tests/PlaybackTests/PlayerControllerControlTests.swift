import Foundation
@testable import Playback
import Testing

/// Seek, pause, volume and stop against real libmpv.
@Suite("PlayerController controls")
struct PlayerControllerControlTests {
    @Test("seek lands where asked, and seeking near the end finishes with eof")
    func seekLandsAndEndFinishes() async throws {
        let fixture = try await PlaybackFixture(media: ["tone.mp3": 10])
        let id = try fixture.player.load(fixture.url("tone.mp3"))
        _ = try await fixture.events.started(id)
        _ = try await fixture.events.progress(id)

        // The collector may run far behind the player (its task shares the cooperative pool
        // with the rest of the suite), so progress sent before a seek can still be unread
        // when the seek returns. `seek` says where in the stream it took hold; the first
        // progress after that point is the landing, and must be where we asked.
        let toMark = try fixture.player.seek(.absolute(2.0))
        let landed = try await fixture.events.progress(id, from: toMark)
        #expect(abs(landed - 2.0) < 0.5, "first progress after seek(to: 2) was \(landed): \(fixture.events.all)")

        // A relative seek counts from where playback is when mpv runs it, and this task may
        // have been held up for a while after the landing: measure from the position now.
        let before = try #require(fixture.player.position)
        let byMark = try fixture.player.seek(.relative(3.0))
        let jumped = try await fixture.events.progress(id, from: byMark)
        #expect(jumped >= before + 2.9 && jumped < before + 3.5,
                "first progress after seek(by: 3) from \(before) was \(jumped): \(fixture.events.events(from: byMark))")

        // 0.5 s before the end of a 10 s file: eof follows, and nothing between the seek and
        // the end may report a position short of where it landed (playing on from 5 s would).
        // No wall-clock bound: on a machine busy with the rest of the suite the collector
        // reads events seconds late, and the positions already prove where playback went.
        let endMark = try fixture.player.seek(.absolute(9.5))
        #expect(try await fixture.events.finished(id) == .eof)
        let tail = fixture.events.events(from: endMark).compactMap { $0.progressPosition(of: id) }
        #expect(tail.allSatisfy { $0 >= 9.4 }, "progress after seek(to: 9.5): \(tail)")
    }

    @Test("seek lands within 0.5 s in every format the station serves", arguments: ["ogg", "m4a", "mp3"])
    func seekAccuracy(extension ext: String) async throws {
        let name = "tone.\(ext)"
        let fixture = try await PlaybackFixture(media: [name: 12])
        let id = try fixture.player.load(fixture.url(name))
        _ = try await fixture.events.started(id)
        _ = try await fixture.events.progress(id)
        for target in [7.0, 2.5] {
            let mark = try fixture.player.seek(.absolute(target))
            let landed = try await fixture.events.progress(id, from: mark)
            #expect(abs(landed - target) < 0.5, "\(ext): seek(to: \(target)) landed at \(landed)")
        }
        let before = try #require(fixture.player.position)
        let mark = try fixture.player.seek(.relative(4))
        let jumped = try await fixture.events.progress(id, from: mark)
        #expect(jumped >= before + 3.5 && jumped < before + 4.5, "\(ext): seek(by: 4) from \(before) landed at \(jumped)")
    }

    @Test("currentPosition names the playing item and reads mpv's position now; nil when nothing plays")
    func currentPosition() async throws {
        let fixture = try await PlaybackFixture(media: ["tone.mp3": 10])
        #expect(fixture.player.currentPosition == nil)
        let id = try fixture.player.load(fixture.url("tone.mp3"), startAt: 3)
        _ = try await fixture.events.started(id)
        let first = try #require(fixture.player.currentPosition)
        #expect(first.item == id)
        // Started at 3 s, not at 0: the upper bound only says it is this play of the file (the
        // read may come seconds late on a busy machine).
        #expect(first.seconds >= 2.9 && first.seconds < 9.5, "started at 3 s: \(first.seconds)")
        try fixture.player.pause()
        try await fixture.events.next("paused") { $0 == .paused }
        let frozen = try #require(fixture.player.currentPosition)
        // Exact, not the last progress: the same as mpv's time-pos read directly.
        #expect(frozen.seconds == fixture.player.position)
        try fixture.player.stop()
        _ = try await fixture.events.finished(id)
        #expect(fixture.player.currentPosition == nil)
    }

    @Test("pause freezes the position, resume advances it, volume is reported")
    func pauseResumeVolume() async throws {
        let fixture = try await PlaybackFixture(media: ["tone.mp3": 10])
        let id = try fixture.player.load(fixture.url("tone.mp3"))
        _ = try await fixture.events.started(id)
        _ = try await fixture.events.progress(id)

        try fixture.player.pause()
        try await fixture.events.next("paused") { $0 == .paused }
        let frozen = try #require(fixture.player.position)
        // Time passes while paused; the first position after the resume shows it was not
        // played (the longer a slow machine makes this wait, the surer that is). This must be
        // a clock: what is frozen is mpv's own playback clock, and only real time passing can
        // show it stood still (a moving one would be past 0.5 s more after the resume).
        try await Task.sleep(for: .milliseconds(800))
        #expect(fixture.player.position == frozen)

        try fixture.player.resume()
        try await fixture.events.next("resumed") { $0 == .resumed }
        let moving = try await fixture.events.progress(id)
        #expect(moving > frozen && moving - frozen < 0.5, "paused at \(frozen) s, on again at \(moving) s")
        #expect(try await fixture.events.progress(id) > moving)

        try fixture.player.setVolume(40)
        try await fixture.events.next("volume(40)") { $0 == .volume(40) }
        #expect(fixture.player.volume == 40)
        try fixture.player.setVolume(250)
        try await fixture.events.next("volume(100)") { $0 == .volume(100) }
        #expect(fixture.player.volume == 100)
        // Pausing twice reports once.
        try fixture.player.pause()
        try fixture.player.pause()
        try await fixture.events.next("paused") { $0 == .paused }
        // A volume change after both: a second `paused` would come before its event.
        try fixture.player.setVolume(37)
        try await fixture.events.next("volume(37)") { $0 == .volume(37) }
        #expect(fixture.events.all.filter { $0 == .paused }.count == 2)
    }

    @Test("stop finishes the playing item and leaves the player usable")
    func stopFinishesItem() async throws {
        let fixture = try await PlaybackFixture(media: ["tone.mp3": 10])
        let first = try fixture.player.load(fixture.url("tone.mp3"))
        _ = try await fixture.events.started(first)

        try fixture.player.stop()
        #expect(try await fixture.events.finished(first) == .stopped)
        #expect(fixture.player.position == nil)

        // Stopped before mpv even began it: mpv reports nothing, the player still must.
        let second = try fixture.player.load(fixture.url("tone.mp3"))
        try fixture.player.stop()
        #expect(try await fixture.events.finished(second) == .stopped)

        let third = try fixture.player.load(fixture.url("tone.mp3"))
        _ = try await fixture.events.started(third)
        #expect(Set([first, second, third]).count == 3)
    }

    @Test("seeking with nothing loaded fails with mpv's reason")
    func seekWhileIdleFails() async throws {
        let player = try PlayerController(options: PlayerOptions(audioOutput: "null"))
        defer { player.shutdown() }
        #expect(throws: PlaybackError.self) { try player.seek(to: 3) }
        do {
            try player.seek(by: 1)
            Issue.record("seek while idle succeeded")
        } catch {
            guard case .commandFailed(name: "seek", let message) = error else {
                Issue.record("unexpected error \(error)"); return
            }
            #expect(!message.isEmpty)
        }
        #expect(player.position == nil)
    }
}
