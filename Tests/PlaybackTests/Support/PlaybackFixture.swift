import Foundation
import Playback
import TestSupport

/// One test's world: tones generated with ffmpeg into a temporary folder, served over HTTP
/// on 127.0.0.1, and a real `PlayerController` with `ao=null` (plays in real time, no device).
final class PlaybackFixture: Sendable {
    /// The folder holding the media.
    let folder: TemporaryDirectory
    /// Serves `folder` with Range support and records requests.
    let server: StaticFileServer
    /// Serves `folder` too, but misbehaves as scripted (cuts, stalls, error statuses).
    let faulty: FaultyMediaServer
    /// The player under test.
    let player: PlayerController
    /// Its events.
    let events: EventCollector
    /// The probe the player asks about refused URLs (unless the options brought their own).
    let probe = TestStatusProbe()

    /// Generates `media` (file name → seconds; the extension picks the format; mp3s at
    /// `mp3Bitrate` kbit/s), starts the servers and the player.
    init(media: [String: Double], options: PlayerOptions = PlayerOptions(), mp3Bitrate: Int = 128) async throws {
        folder = try TemporaryDirectory(prefix: "mhz-playback")
        let folder = self.folder
        for (name, seconds) in media.sorted(by: { $0.key < $1.key }) {
            try await offPool { try MediaFactory.tone(at: folder.path(name), seconds: seconds, mp3Bitrate: mp3Bitrate) }
        }
        server = try await StaticFileServer(root: folder.url)
        faulty = try FaultyMediaServer(root: folder.url)
        var options = options
        options.audioOutput = "null"
        if options.statusProbe == nil { options.statusProbe = probe }
        player = try PlayerController(options: options)
        events = EventCollector(player.events)
    }

    /// The HTTP URL of a file in the folder.
    func url(_ name: String) -> String { server.url(name).absoluteString }

    /// The GET requests the server received for a file.
    func gets(_ name: String) -> [RecordedRequest] {
        server.recorder.requests(to: "/" + name).filter { $0.method == "GET" }
    }

    deinit {
        player.shutdown()
        server.stop()
        faulty.stop()
    }
}
