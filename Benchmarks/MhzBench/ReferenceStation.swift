import BenchKit
import Foundation
import Station

/// A station in the benchmark's own process over the demo library mhz synthesized, so the
/// mpv command line plays the same files, served by the same station code over HTTP, that
/// mhz's embedded station serves to mhz.
struct ReferenceStation {
    /// The station serving the files.
    let station: Station
    /// Media URLs of the demo songs, each once.
    let urls: [String]

    /// Starts a station over `library`, keeping its data in `data`, and collects the media
    /// URLs its playlists hand out.
    static func start(library: URL, data: URL) async throws -> ReferenceStation {
        let station = try await Station(configuration: StationConfiguration(
            library: library, dataDirectory: data, seed: 7, rescanInterval: nil))
        let port = try await station.start().port!
        let client = LoadClient(port: port)
        var urls: [String] = []
        for _ in 0..<30 {
            let body = try client.get("/j/app/radio/people?app_name=radio_android&version=100&channel=0&type=n&sid=")
            let json = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] ?? [:]
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

    /// Stops serving.
    func stop() async { await station.stop() }
}
