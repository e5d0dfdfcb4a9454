import BenchKit
import Foundation
import Station

/// A station in the benchmark's own process over the demo library mhz synthesized, asked
/// in-process as mhz asks its embedded station, so the mpv command line plays the same
/// songs the same way mhz does: the files themselves (`file://`).
struct ReferenceStation {
    /// The station serving the files.
    let station: Station
    /// The demo songs' `file://` URLs, each once, in the order the station listed them.
    let urls: [String]

    /// Opens a station over `library`, keeping its data in `data`, and collects the song
    /// URLs its playlists hand out.
    static func start(library: URL, data: URL) async throws -> ReferenceStation {
        var configuration = StationConfiguration(library: library, dataDirectory: data, seed: 7, rescanInterval: nil)
        // The reference plays beside mpv: nothing else of the station's may take the cores.
        configuration.analysesSound = false
        let station = try await Station(configuration: configuration)
        var urls: [String] = []
        for _ in 0..<30 {
            let reply = await station.respond(method: "GET", path: "/j/app/radio/people",
                                              query: "app_name=radio_android&version=100&channel=0&type=n&sid=")
            let json = try JSONSerialization.jsonObject(with: reply.body) as? [String: Any] ?? [:]
            for song in json["song"] as? [[String: Any]] ?? [] {
                if let url = song["url"] as? String, !urls.contains(url) { urls.append(url) }
            }
        }
        guard !urls.isEmpty else {
            await station.stop()
            throw BenchError.protocolError("the reference station handed out no songs")
        }
        return ReferenceStation(station: station, urls: urls)
    }

    /// Saves what the station learned and closes it.
    func stop() async { await station.stop() }
}
