import Foundation
@testable import Playback
import Testing
import TestSupport

/// Audio devices, output failures, mute, tags and video mode, against real libmpv.
@Suite("PlayerController outputs and tags")
struct PlayerControllerOutputTests {
    static var hasDisplay: Bool { VideoDisplay.name(in: ProcessInfo.processInfo.environment) != nil }

    @Test("audio-device-list lists mpv's automatic choice first even with ao=null, and a device can be picked")
    func deviceList() throws {
        let player = try PlayerController(options: PlayerOptions(audioOutput: "null"))
        defer { player.shutdown() }
        let devices = try player.audioDevices()
        // mpv 0.35 lists every driver it was built with, whatever ao is in use; on the CI box
        // that is auto, alsa, jack, sdl. Only "auto" first is certain everywhere.
        #expect(devices.first == AudioDevice.automatic, "\(devices)")
        #expect(player.audioDevice == "auto")
        let other = devices.last?.name ?? "auto"
        try player.setAudioDevice(other)
        #expect(player.audioDevice == other)
        player.shutdown()
        #expect(throws: PlaybackError.shutDown) { try player.audioDevices() }
    }

    @Test("an audio output that cannot open finishes the item with audioOutputFailed")
    func outputFailure() async throws {
        let fixture = try await PlaybackFixture(
            media: ["tone.mp3": 3],
            options: PlayerOptions(extraOptions: [("ao", "pcm"), ("ao-pcm-file", "/nonexistent-mhz-dir/out.wav")]))
        let id = try fixture.player.load(fixture.url("tone.mp3"))
        #expect(try await fixture.events.finished(id) == .audioOutputFailed)
        #expect(FinishReason.audioOutputFailed.mpvWords == "audio output initialization failed")
    }

    /// An output that goes away mid-song: `ao=pcm` writing into a folder that is then
    /// removed, and a device switch that makes mpv reopen the output. (With `ao=null` mpv
    /// ignores `audio-device` altogether, so it cannot lose a device.) `ao=pcm` is not
    /// clocked, it writes as fast as it decodes, so the song starts paused 10 s in, and the
    /// output is lost before it resumes.
    @Test("a device lost mid-song finishes the playing item with audioOutputFailed, not as a broken stream")
    func deviceLostMidSong() async throws {
        let sink = try TemporaryDirectory(prefix: "mhz-pcm")
        let folder = sink.path("out")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fixture = try await PlaybackFixture(
            media: ["tone.mp3": 30],
            options: PlayerOptions(extraOptions: [("ao", "pcm"), ("ao-pcm-file", folder.appendingPathComponent("out.wav").path),
                                                  ("pause", "yes")]))
        let id = try fixture.player.load(fixture.url("tone.mp3"), startAt: 10)
        _ = try await fixture.events.started(id)
        #expect(fixture.player.isPaused)
        let at = try #require(fixture.player.currentPosition)
        #expect(at.item == id && abs(at.seconds - 10) < 0.5, "\(at)")

        try FileManager.default.removeItem(at: folder)
        try fixture.player.setAudioDevice("bogus")
        try fixture.player.resume()
        #expect(try await fixture.events.finished(id) == .audioOutputFailed, "\(fixture.events.all)")
        #expect(fixture.player.audioDevice == "bogus")
        // Not taken for a broken stream: no reload was tried.
        #expect(!fixture.events.all.contains { if case .recovering = $0 { true } else { false } }, "\(fixture.events.all)")
    }

    @Test("mute and pause toggles are reported and read back")
    func muteAndToggle() async throws {
        let fixture = try await PlaybackFixture(media: ["tone.mp3": 5])
        let id = try fixture.player.load(fixture.url("tone.mp3"))
        _ = try await fixture.events.started(id)
        #expect(!fixture.player.isMuted)
        try fixture.player.setMuted(true)
        try await fixture.events.next("muted(true)") { $0 == .muted(true) }
        #expect(fixture.player.isMuted)
        #expect(fixture.player.volume == 100, "mute leaves the volume alone")
        try fixture.player.setMuted(false)
        try await fixture.events.next("muted(false)") { $0 == .muted(false) }

        #expect(try fixture.player.togglePause() == true)
        try await fixture.events.next("paused") { $0 == .paused }
        #expect(fixture.player.isPaused)
        #expect(try fixture.player.togglePause() == false)
        try await fixture.events.next("resumed") { $0 == .resumed }
    }

    @Test("the file's tags arrive as metadata right after started")
    func tags() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-tags")
        try await offPool {
            try MediaFactory.tone(at: folder.path("tagged.ogg"), seconds: 3,
                                  tags: ["title": "Test Title", "artist": "Test Artist", "album": "Test Album"])
        }
        let server = try await StaticFileServer(root: folder.url)
        defer { server.stop() }
        let player = try PlayerController(options: PlayerOptions(audioOutput: "null"))
        defer { player.shutdown() }
        let events = EventCollector(player.events)
        let id = try player.load(server.url("tagged.ogg").absoluteString)
        _ = try await events.started(id)
        let update = try await events.next("metadata") { if case .metadata(id, _) = $0 { true } else { false } }
        guard case .metadata(_, let tags) = update else { return }
        #expect(tags.title == "Test Title")
        #expect(tags.artist == "Test Artist")
        #expect(tags.album == "Test Album")
        let all = events.all
        // Right after started: mpv reports `time-pos` and `metadata` as separate property
        // changes, so a first progress may come between them, but nothing else does.
        let startedAt = try #require(all.firstIndex { if case .started = $0 { true } else { false } })
        let metadataAt = try #require(all.firstIndex(of: update))
        #expect(metadataAt > startedAt)
        #expect(all[(startedAt + 1)..<metadataAt].allSatisfy { if case .progress(id, _) = $0 { true } else { false } }, "\(all)")
    }

    @Test("video without a display fails fast with noDisplay", .enabled(if: !hasDisplay))
    func videoWithoutDisplay() {
        let started = ContinuousClock.now
        #expect(throws: PlaybackError.noDisplay) { _ = try PlayerController(options: PlayerOptions(audioOutput: "null", video: true)) }
        // Fast means before mpv is even created (whose video output would wait for a
        // display): a generous bound for a loaded machine, far below any such wait.
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test("a video output that cannot open is reported, and the item ends instead of hanging", .enabled(if: !hasDisplay))
    func videoOutputFails() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-video")
        try await offPool { try MediaFactory.video(at: folder.path("clip.mp4"), seconds: 3) }
        // Past the display check on purpose: x11 without a display is an output that fails.
        let player = try PlayerController(checkedOptions: PlayerOptions(audioOutput: "null", video: true,
                                                                        extraOptions: [("vo", "x11")]))
        defer { player.shutdown() }
        let events = EventCollector(player.events)
        let id = try player.load(folder.path("clip.mp4").path)
        try await events.next("videoOutputFailed") { if case .videoOutputFailed = $0 { true } else { false } }
        let reason = try await events.finished(id)
        #expect(reason != .eof && reason != .stopped, "\(reason)")
    }
}

