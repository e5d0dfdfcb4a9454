import Foundation
@testable import Station
import Testing
import TestSupport

/// `GET /metrics`: the station's counts in Prometheus' text format, made through
/// swift-metrics over a registry of its own: exact lines for the requests made, a failed
/// login and a channel on the air, help on every metric, and `promtool check metrics`
/// (Prometheus' own linter) finds nothing to say.
@Suite("Station metrics")
struct MetricsRouteTests {
    /// The repository, where `script/setup --test` puts `promtool`.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The exposition's lines.
    private static func lines(_ base: URL) async throws -> [String] {
        let answer = try await HTTPFetch.get(base, "/metrics")
        #expect(answer.status == 200 && answer.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8",
                "\(answer.status) \(answer.headers)")
        return answer.text.split(separator: "\n").map(String.init)
    }

    @Test("requests by family and status, a failed login, the library and a channel's listeners, each metric with its help")
    func exposition() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-metrics")
        defer { data.remove() }
        let station = try await LiveFixtures.station(data: data.url)
        let base = try await station.start()
        try await withCleanup {
            for _ in 0..<3 { #expect(try await HTTPFetch.get(base, "/j/app/radio/channels").status == 200) }
            #expect(try await HTTPFetch.get(base, "/no/such/route").status == 404)
            let login = try await HTTPFetch.post(base, "/j/app/login",
                                                 form: "app_name=radio_android&version=100&username=nobody&password=wrong")
            #expect(login.status == 200)
            let lines = try await Self.lines(base)
            #expect(lines.contains(#"mhz_http_requests_total{family="app",status="200"} 4"#), "\(lines)")
            #expect(lines.contains(#"mhz_http_requests_total{family="other",status="404"} 1"#), "\(lines)")
            #expect(lines.contains(#"mhz_http_request_duration_seconds_count{family="app"} 4"#), "\(lines)")
            #expect(lines.contains("mhz_login_failures_total 1"), "\(lines)")
            // Gauges are written as floating-point numbers, counters as integers.
            #expect(lines.contains("mhz_library_tracks \(station.servedLibrary.tracks.count).0"), "\(lines)")
            #expect(lines.contains("mhz_sound_analysed_tracks 0.0") && lines.contains("mhz_sound_unreadable_files 0.0"))
            #expect(lines.contains("mhz_transcodes_started_total 0") && lines.contains("mhz_transcodes_cached 0.0"))
            // The first scan, then a rescan: each is counted, changed or not.
            #expect(lines.contains("mhz_library_scan_duration_seconds_count 1"), "\(lines)")
            _ = try await station.rescan()
            // Every metric has its help and type, once.
            for name in StationMetrics.help.keys where name != "mhz_live_listeners" && name != "mhz_live_edge_answers_total" {
                #expect(lines.filter { $0 == "# HELP \(name) \(StationMetrics.help[name] ?? "")" }.count == 1, "\(name)")
                #expect(lines.filter { $0.hasPrefix("# TYPE \(name) ") }.count == 1, "\(name)")
            }

            // A channel on the air, with the listener its playlist polls name.
            let channel = try await LiveFixtures.channel(base)
            #expect(try await HTTPFetch.get(base, "/live/\(channel)/128.m3u8").status == 200)
            let onAir = try await Self.lines(base)
            #expect(onAir.contains { $0.hasPrefix(#"mhz_live_listeners{channel="\#(channel)"} "#) }, "\(onAir)")
            #expect(onAir.contains(#"mhz_http_requests_total{family="operator",status="200"} 1"#), "\(onAir)")
            #expect(onAir.contains("mhz_library_scan_duration_seconds_count 2"), "\(onAir)")
        } cleanup: {
            await station.stop()
        }
    }

    @Test("promtool check metrics reads the exposition clean")
    func promtool() async throws {
        let tool = Self.repository.appendingPathComponent(".build/tools/promtool").path
        let promtool = FileManager.default.isExecutableFile(atPath: tool) ? tool : "promtool"
        let data = try TemporaryDirectory(prefix: "mhz-metrics-lint")
        defer { data.remove() }
        let station = try await LiveFixtures.station(data: data.url)
        let base = try await station.start()
        try await withCleanup {
            _ = try await HTTPFetch.get(base, "/j/app/radio/channels")
            _ = try await HTTPFetch.get(base, "/live/\(try await LiveFixtures.channel(base))/128.m3u8")
            let body = try await HTTPFetch.get(base, "/metrics").body
            let checked = try await offPool { try Tool.run(promtool, ["check", "metrics"], stdin: body, mergingErrors: true) }
            #expect(checked.status == 0 && checked.text.isEmpty, "promtool: \(checked.text)")
        } cleanup: {
            await station.stop()
        }
    }

    @Test("route families: the station's own routes, anything else other")
    func families() {
        let expected: [String: String] = [
            "/": "player", "/web/player.js": "player", "/j/app/radio/people": "app", "/j/app/login": "app",
            "/j/mine/playlist": "web", "/j/v2/playlist": "web", "/j/login": "web", "/j/new_captcha": "web",
            "/misc/captcha": "web", "/partner/logout": "web", "/v2/fm/lyric": "lyric", "/j/v2/lyric": "lyric",
            "/media/1-128k.mp3": "media", "/cover/a.jpg": "cover", "/live/4.m3u8": "live", "/status": "operator",
            "/metrics": "operator", "/wp-login.php": "other", "/j/apps": "other",
        ]
        for (path, family) in expected { #expect(StationMetrics.family(of: path) == family, "\(path)") }
    }
}
