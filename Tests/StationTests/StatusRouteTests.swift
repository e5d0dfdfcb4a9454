import Foundation
import MhzVersion
@testable import Station
import Testing
import TestSupport

/// `GET /status`: what the station serves and how far its work has come, for its operator:
/// exact fields, no listener's name or address, loopback only unless told otherwise.
@Suite("Station status")
struct StatusRouteTests {
    @Test("a loopback client gets the version, the tracks, the analysis, the uptime and the channels on the air")
    func answer() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-status")
        defer { data.remove() }
        let station = try await LiveFixtures.station(data: data.url)
        let base = try await station.start()
        try await withCleanup {
            let first = try await HTTPFetch.get(base, "/status")
            #expect(first.status == 200 && first.headers["content-type"] == "application/json", "\(first.headers)")
            #expect(first.headers["cache-control"] == "no-store")
            let object = try first.jsonObject()
            #expect(Set(object.keys) == ["version", "tracks", "analysed", "unreadable", "uptime", "live"], "\(object)")
            #expect(object["version"] as? String == MhzVersion.number)
            #expect(object["tracks"] as? Int == station.servedLibrary.tracks.count && station.servedLibrary.tracks.count > 0)
            // The fixture's station does not analyse: nothing measured, nothing unreadable.
            #expect(object["analysed"] as? Int == 0 && object["unreadable"] as? Int == 0)
            #expect((object["uptime"] as? Int).map { $0 >= 0 } == true)
            #expect((object["live"] as? [Any])?.isEmpty == true)

            // A listener tunes in: the channel is on the air since about now, with that listener.
            let channel = try await LiveFixtures.channel(base)
            let before = Date()
            let playlist = try await HTTPFetch.get(base, "/live/\(channel)/128.m3u8")
            #expect(playlist.status == 200)
            let live = try #require(try await HTTPFetch.get(base, "/status").jsonObject()["live"] as? [[String: Any]])
            #expect(live.count == 1, "\(live)")
            let entry = try #require(live.first)
            #expect(Set(entry.keys) == ["channel", "listeners", "on_air_since"], "\(entry)")
            #expect(entry["channel"] as? String == channel)
            #expect((entry["listeners"] as? Int).map { $0 >= 0 } == true)
            let since = try #require((entry["on_air_since"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) })
            #expect(abs(since.timeIntervalSince(before)) < 2, "\(since) vs \(before)")
            // Nothing personal: no listener's id, address or song.
            let text = try await HTTPFetch.get(base, "/status").text
            #expect(!text.contains("127.0.0.1") && !text.contains("sid") && !text.contains("listener_id"), "\(text)")
        } cleanup: {
            await station.stop()
        }
    }

    @Test("only loopback clients may ask, unless the station is told everyone may")
    func whoMayAsk() {
        for address in ["127.0.0.1", "127.8.9.1", "::1", "::ffff:127.0.0.1", "::FFFF:127.0.0.1"] {
            #expect(StationStatus.isAllowed(address: address, everyone: false), "\(address)")
        }
        for address in ["192.168.1.20", "10.0.0.1", "::2", "fe80::1", "128.0.0.1", "::ffff:192.168.1.2", "1127.0.0.1"] {
            #expect(!StationStatus.isAllowed(address: address, everyone: false), "\(address)")
            #expect(StationStatus.isAllowed(address: address, everyone: true), "\(address)")
        }
        #expect(!StationStatus.isAllowed(address: nil, everyone: false))
    }

    @Test("the body is one JSON object of those fields, on_air_since in ISO 8601")
    func body() throws {
        let status = StationStatus(version: "9.8.7", tracks: 20_000, analysed: 4210, unreadable: 12, uptime: 3600,
                                   live: [StationStatus.Live(channel: "4", listeners: 3, onAirSince: 1_795_970_977_000)])
        #expect(String(decoding: status.json, as: UTF8.self) == #"{"analysed":4210,"live":[{"channel":"4","listeners":3,"#
                + #""on_air_since":"2026-11-29T16:49:37Z"}],"tracks":20000,"unreadable":12,"uptime":3600,"version":"9.8.7"}"#)
    }
}
