import Foundation
@testable import Station
import Testing
import TestSupport

/// `HEAD` answers every `GET` route as `GET` does (RFC 9110 §9.3.2): the same status and
/// headers, `Content-Length` among them, and no body; the API's routes and the live
/// channels' as much as the web player's and the media files'.
@Suite("HEAD routes")
struct HeadRouteTests {
    /// GETs and HEADs `target`, each byte for byte, and checks that the HEAD is the GET
    /// without its body; `sameBody` when the GET's body is the same every time, so that its
    /// length is the HEAD's `Content-Length` (a playlist answer draws other songs each time).
    private static func expectHeadMatchesGet(port: Int, _ target: String, sameBody: Bool = true) async throws {
        let get = try await RawHTTP.get(port: port, target: target)
        let head = try await RawHTTP.get(port: port, target: target, method: "HEAD")
        #expect(head.status == get.status, "HEAD \(target): \(head.status), GET \(get.status)")
        #expect(head.headers["content-type"] == get.headers["content-type"], "\(target)")
        #expect(head.body.isEmpty, "HEAD \(target) has a body: \(head.text)")
        let announced = try #require(head.headers["content-length"].flatMap { Int($0) }, "HEAD \(target) has no length")
        if sameBody {
            #expect(announced == get.body.count, "\(target)")
        } else {
            #expect(announced > 0, "\(target)")
        }
    }

    @Test("HEAD of every API route is its GET without the body: channels, both families' playlists, liked songs, lyrics, captchas, logout")
    func apiRoutes() async throws {
        try await StationFixtures.withDemoStation { station, base in
            let port = try #require(base.port)
            let sid = try #require(station.servedLibrary.tracks.first?.sid)
            let app = "app_name=radio_android&version=100"
            for target in ["/j/app/radio/channels", "/j/app/radio/liked_songs?\(app)", "/v2/fm/lyric?sid=\(sid)",
                           "/j/v2/lyric?sid=\(sid)", "/misc/captcha?id=never-issued", "/partner/logout", "/no/such/route"] {
                try await Self.expectHeadMatchesGet(port: port, target)
            }
            for target in ["/j/app/radio/people?\(app)&channel=0&type=n&sid=", "/j/mine/playlist?channel=0&type=n",
                           "/j/v2/playlist?channel=0&type=n&kbps=128", "/j/new_captcha"] {
                try await Self.expectHeadMatchesGet(port: port, target, sameBody: false)
            }
        }
    }

    @Test("HEAD of every live route is its GET without the body: master and variant playlists, aired.json, a segment")
    func liveRoutes() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-head-live")
        defer { data.remove() }
        let station = try await LiveFixtures.station(data: data.url)
        let base = try await station.start()
        try await withCleanup {
            let port = try #require(base.port)
            let channel = try await LiveFixtures.channel(base)
            let list = try await LiveFixtures.waitFor(base, channel, "a segment") { !$0.entries.isEmpty }
            let variant = try #require(URL(string: "\(base.absoluteString)/live/\(channel)/128.m3u8"))
            let uri = try #require(list.entries.first?.uri)
            let segment = try #require(URL(string: uri, relativeTo: variant))
            let segmentTarget = segment.path + (segment.query.map { "?" + $0 } ?? "")
            try await Self.expectHeadMatchesGet(port: port, segmentTarget)
            for target in ["/live/\(channel).m3u8", "/live/\(channel)/128.m3u8", "/live/\(channel)/aired.json"] {
                try await Self.expectHeadMatchesGet(port: port, target, sameBody: false)
            }
            try await Self.expectHeadMatchesGet(port: port, "/live/\(channel)/999.m3u8")
        } cleanup: {
            await station.stop()
        }
    }
}
