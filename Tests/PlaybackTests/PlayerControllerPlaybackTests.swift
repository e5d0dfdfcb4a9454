import Foundation
import Playback
import Testing
import TestSupport

/// Real libmpv (`ao=null`, real time) playing generated media over HTTP.
@Suite("PlayerController plays media")
struct PlayerControllerPlaybackTests {
    @Test("an mp3 over HTTP starts with the id load returned and its position advances")
    func playsMP3OverHTTP() async throws {
        let fixture = try await PlaybackFixture(media: ["tone.mp3": 10])
        let id = try fixture.player.load(fixture.url("tone.mp3"))

        let duration = try #require(try await fixture.events.started(id))
        #expect(abs(duration - 10) < 0.2)
        let startIndex = fixture.events.cursor
        // time-pos advancing is what proves audio is being clocked; PLAYBACK_RESTART alone
        // also fires when there is no usable audio output.
        func positions() -> [Double] { fixture.events.events(from: startIndex).compactMap { $0.progressPosition(of: id) } }
        #expect(await eventually { (positions().last ?? 0) - (positions().first ?? 0) >= 1.2 }, "\(positions())")

        let after = fixture.events.events(from: startIndex)
        let positions = after.compactMap { $0.progressPosition(of: id) }
        #expect(positions.count >= 3, "progress events: \(after)")
        // Throttled to one per 250 ms of playing, counted in media time: a busy machine can
        // stretch the sleep above, not the clock mpv plays by.
        let span = (positions.last ?? 0) - (positions.first ?? 0)
        #expect(positions.count <= Int(span / 0.25) + 2, "throttled to ~4/s, got \(positions.count) over \(span) s: \(positions)")
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 }, "not strictly increasing: \(positions)")
        #expect((positions.last ?? 0) - (positions.first ?? 0) >= 0.8, "media time barely moved: \(positions)")
        #expect(!after.contains { if case .finished = $0 { true } else { false } })
        // Nothing about any other item, and no progress before started.
        #expect(fixture.events.all.allSatisfy { $0.itemID == nil || $0.itemID == id })
        let firstStarted = try #require(fixture.events.all.firstIndex { if case .started = $0 { true } else { false } })
        let firstProgress = try #require(fixture.events.all.firstIndex { $0.progressPosition(of: id) != nil })
        #expect(firstStarted < firstProgress)
        #expect(fixture.gets("tone.mp3").count >= 1, "requests: \(fixture.server.recorder.all)")
        #expect(fixture.player.position.map { $0 > 1 } == true)
    }

    @Test("ogg, m4a and mp3 load and advance", arguments: ["ogg", "m4a", "mp3"])
    func formatsPlay(extension ext: String) async throws {
        let name = "tone.\(ext)"
        let fixture = try await PlaybackFixture(media: [name: 4])
        let id = try fixture.player.load(fixture.url(name))

        let duration = try #require(try await fixture.events.started(id))
        #expect(abs(duration - 4) < 0.2)
        let first = try await fixture.events.progress(id)
        var last = first
        while last < first + 1.0 { last = try await fixture.events.progress(id) }
        #expect(last >= first + 1.0)
        #expect(try await fixture.events.finished(id) == .eof)
        #expect(fixture.gets(name).count >= 1)
    }

    @Test("progress covers playback without gaps over a second, so a saved position is never far behind")
    func progressCadence() async throws {
        let fixture = try await PlaybackFixture(media: ["tone.ogg": 5])
        let id = try fixture.player.load(fixture.url("tone.ogg"))
        _ = try await fixture.events.started(id)
        #expect(try await fixture.events.finished(id) == .eof)
        let positions = fixture.events.all.compactMap { $0.progressPosition(of: id) }
        // Media time between reports, which the consumer's own delays cannot stretch.
        let gaps = zip(positions, positions.dropFirst()).map { $1 - $0 }
        #expect(positions.count >= 10, "\(positions)")
        #expect(gaps.allSatisfy { $0 > 0 && $0 <= 1.0 }, "\(gaps)")
        #expect((positions.first ?? 9) < 0.5 && (positions.last ?? 0) > 4.0, "\(positions)")
    }

    @Test("startAt begins playback there")
    func startAtBeginsThere() async throws {
        let fixture = try await PlaybackFixture(media: ["tone.mp3": 10])
        let id = try fixture.player.load(fixture.url("tone.mp3"), startAt: 6)

        _ = try await fixture.events.started(id)
        let position = try await fixture.events.progress(id)
        #expect(position >= 5.9 && position < 6.6, "first position \(position)")
    }

    @Test("user agent and headers reach the server, commas intact")
    func headersReachServer() async throws {
        let options = PlayerOptions(userAgent: "mhz-tests/1.0", httpHeaders: ["X-Token: a,b", "X-Other: c"])
        let fixture = try await PlaybackFixture(media: ["tone.mp3": 3], options: options)
        let id = try fixture.player.load(fixture.url("tone.mp3"))
        _ = try await fixture.events.started(id)

        let request = try #require(fixture.gets("tone.mp3").first)
        #expect(request.headers["user-agent"] == "mhz-tests/1.0")
        #expect(request.headers["x-token"] == "a,b")
        #expect(request.headers["x-other"] == "c")
    }

    @Test("a playlist file plays its entry under the id of the load")
    func playlistFileReportsUnderLoadID() async throws {
        let fixture = try await PlaybackFixture(media: ["tone.mp3": 3])
        let playlist = fixture.url("tone.mp3") + "\n"
        try playlist.write(to: fixture.folder.path("list.m3u"), atomically: true, encoding: .utf8)
        let id = try fixture.player.load(fixture.url("list.m3u"))

        _ = try await fixture.events.started(id)
        _ = try await fixture.events.progress(id)
        #expect(try await fixture.events.finished(id) == .eof)
        #expect(fixture.events.all.allSatisfy { $0.itemID == nil || $0.itemID == id }, "\(fixture.events.all)")
        #expect(fixture.gets("list.m3u").count >= 1)
        #expect(fixture.gets("tone.mp3").count >= 1)
    }
}
