import Foundation
@testable import Playback
import Testing
import TestSupport

/// HLS streams from the project's fixture script (plain, AES-128 in three flavours), over
/// HTTP from a Range-capable server and from local files, against real libmpv.
@Suite("PlayerController HLS")
struct PlayerControllerHLSTests {
    /// A player with `ao=null`, its collected events, and a server for the HLS tree.
    struct World {
        let streams: HLSFixture.Streams
        let server: StaticFileServer
        let player: PlayerController
        let events: EventCollector

        init(options: PlayerOptions = PlayerOptions()) async throws {
            streams = try await HLSFixture.streams()
            server = try await StaticFileServer(root: streams.folder)
            var options = options
            options.audioOutput = "null"
            player = try PlayerController(options: options)
            events = EventCollector(player.events)
        }

        func close() {
            player.shutdown()
            server.stop()
        }
    }

    @Test("HLS over HTTP starts, advances, seeks within 0.5 s and ends with eof", arguments: [
        "clear/master.m3u8", "clear/a128k/index.m3u8", "aes-explicit-iv/index.m3u8",
        "aes-implicit-iv/index.m3u8", "aes-key-rotation/index.m3u8",
    ])
    func overHTTP(playlist: String) async throws {
        let world = try await World()
        defer { world.close() }
        let id = try world.player.load(world.server.url(playlist).absoluteString)

        let duration = try #require(try await world.events.started(id, timeout: .seconds(20)))
        #expect(abs(duration - world.streams.duration) < 0.3, "duration \(duration)")
        let first = try await world.events.progress(id)
        var last = first
        while last < first + 1.0 { last = try await world.events.progress(id) }

        let mark = try world.player.seek(.absolute(12))
        let landed = try await world.events.progress(id, from: mark)
        #expect(abs(landed - 12) < 0.5, "seek(to: 12) landed at \(landed)")
        _ = try world.player.seek(.absolute(world.streams.duration - 0.8))
        #expect(try await world.events.finished(id, timeout: .seconds(15)) == .eof)
        #expect(!world.server.recorder.requests(to: "/" + playlist).isEmpty)
    }

    @Test("load(startAt:) resumes an HLS stream there")
    func resumesAtPosition() async throws {
        let world = try await World()
        defer { world.close() }
        let id = try world.player.load(world.server.url("aes-implicit-iv/index.m3u8").absoluteString, startAt: 10)
        _ = try await world.events.started(id, timeout: .seconds(20))
        let position = try await world.events.progress(id)
        #expect(abs(position - 10) < 0.5, "first position \(position)")
    }

    @Test("a local AES-128 download plays thanks to allowed_extensions=ALL, and does not without it")
    func localEncrypted() async throws {
        let world = try await World()
        defer { world.close() }
        let local = world.streams.path("aes-explicit-iv/index.m3u8").path
        let id = try world.player.load(local)
        _ = try await world.events.started(id, timeout: .seconds(20))
        let first = try await world.events.progress(id)
        var last = first
        while last < first + 1.0 { last = try await world.events.progress(id) }

        // Without the option libavformat refuses to open the key file ("not a common
        // multimedia extension, blocked for security reasons"), so nothing plays.
        let blocked = try PlayerController(options: PlayerOptions(audioOutput: "null",
                                                                  extraOptions: [("demuxer-lavf-o", "")]))
        defer { blocked.shutdown() }
        let events = EventCollector(blocked.events)
        let failing = try blocked.load(local)
        let reason = try await events.finished(failing, timeout: .seconds(20))
        #expect(reason != .eof && reason != .stopped, "\(reason)")
        #expect(!events.all.contains { $0.progressPosition(of: failing) != nil }, "\(events.all)")
    }
}
