import Foundation
import TestSupport
import Testing

/// What the built `mhz` sends when mpv fetches a song: the configured User-Agent, and never
/// the web family's session cookies (media may live on another host than the station).
@Suite(.serialized)
struct MediaRequestTests {
    typealias Account = DoubanTestServer.Account

    @Test func mediaRequestsCarryTheConfiguredUserAgentAndNoSessionCookie() async throws {
        let setup = try await CommandLineSessionTests.Setup()
        defer { setup.server.stop() }
        let login = try await setup.run(["login", "--server", setup.url, "--api", "web", "--username", Account.name,
                                         "--password-stdin"],
                                        stdin: Account.password + "\n" + Account.captchaSolution + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        let config = setup.home.path("mhz.toml")
        try "api = \"web\"\nuser_agent = \"mhz-media-test/7 (+tests)\"\n".write(to: config, atomically: true, encoding: .utf8)

        let play = try setup.headless(["--config", config.path])
        let playing = try await play.waitFor("playing", timeout: 60).event
        let sid = try #require(playing["sid"])
        #expect(sid == "301", "the logged-in list")
        play.send("quit")
        #expect(try await play.exit() == 0)

        // The playlist request carried the session; the media request, made by mpv, carried
        // the same User-Agent and no cookie at all.
        let playlist = try #require(setup.server.calls(to: "/j/v2/playlist").first)
        #expect(playlist.cookies["dbcl2"] == "\"\(Account.sessionCookie)\"")
        #expect(playlist.headers["user-agent"] == "mhz-media-test/7 (+tests)")
        let media = setup.server.calls(to: "/media/\(sid).wav")
        #expect(!media.isEmpty, "mpv fetched the song: \(setup.server.calls.map(\.description))")
        for call in media {
            #expect(call.headers["user-agent"] == "mhz-media-test/7 (+tests)", "\(call.headers)")
            #expect(call.cookies.isEmpty, "\(call.cookies)")
            #expect(call.headers["cookie"] == nil)
        }
    }
}
