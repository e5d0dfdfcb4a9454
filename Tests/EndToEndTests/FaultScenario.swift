import Foundation
import TestSupport

/// One fault scenario's world: the fake station (``DoubanTestServer``) behind a
/// ``FaultProxy``, and the built headless mhz pointed at the proxy with a private home and a
/// `config.toml` of the scenario's settings (`proxy = ""`, so no proxy of the test's own
/// environment comes between them). Songs' audio comes straight from the station unless
/// the scenario puts its own proxy in front of it.
final class FaultScenario: Sendable {
    /// The fake station; it records every request.
    let station: DoubanTestServer
    /// The proxy mhz talks to the station through.
    let proxy: FaultProxy
    /// mhz's home, config and data directory.
    let home: TemporaryDirectory

    /// Starts the station and its proxy (passing through).
    init() async throws {
        station = try await DoubanTestServer()
        station.serveMedia(from: station.baseURL)
        proxy = try FaultProxy(upstream: station.baseURL)
        home = try TemporaryDirectory(prefix: "mhz-fault")
    }

    /// Starts mhz headless on channel 0 through the proxy, with `settings` (TOML lines)
    /// in its config file.
    func startMhz(settings: [String] = []) throws -> BuiltMhz {
        let config = home.path("config.toml")
        try (["proxy = \"\""] + settings).joined(separator: "\n").write(to: config, atomically: true, encoding: .utf8)
        return try BuiltMhz(["--headless", "--server", proxy.baseURL.absoluteString, "--audio-output", "null",
                                          "--data-dir", home.path("data").path, "--config", config.path, "--channel", "0"],
                              environment: ["HOME": home.url.path, "XDG_CONFIG_HOME": home.path("config").path])
    }

    /// The playlist requests the station received, as `type sid` (feedback and fetches
    /// alike), in arrival order.
    var stationReports: [String] {
        station.calls(to: "/j/app/radio/people").map { "\($0.parameter("type") ?? "?") \($0.parameter("sid") ?? "")" }
    }

    /// Stops the proxy and the station (mhz is the test's to kill).
    func stop() {
        proxy.stop()
        station.stop()
    }
}
