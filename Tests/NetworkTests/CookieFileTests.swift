import Foundation
import HTTP
import TestSupport
import Testing
@testable import StationLink
@testable import mhz

/// The cookie jar over the composition root's cookie file: libcurl's engine shared by the
/// pooled handles, sent back to the server that set the cookies, persisted with mode 0600,
/// loaded again on the next start.
struct CookieFileTests {
    func mode(_ url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    @Test func netscapeLinesRoundTrip() throws {
        let line = "#HttpOnly_.douban.fm\tTRUE\t/\tFALSE\t2139722880\tdbcl2\t\"1:abc\""
        let cookie = try #require(Cookie(netscapeLine: line))
        #expect(cookie == Cookie(domain: ".douban.fm", includesSubdomains: true, path: "/", secure: false,
                                 expires: Date(timeIntervalSince1970: 2_139_722_880), name: "dbcl2", value: "\"1:abc\"",
                                 httpOnly: true))
        #expect(cookie.netscapeLine == line)
        #expect(Cookie(netscapeLine: "# Netscape HTTP Cookie File") == nil)
        #expect(Cookie(netscapeLine: "127.0.0.1\tFALSE\t/") == nil)
        let session = try #require(Cookie(netscapeLine: "127.0.0.1\tFALSE\t/\tFALSE\t0\tbid\t"))
        #expect(session.expires == nil && session.value == "")
        #expect(cookie.description == "dbcl2 (.douban.fm/)")
    }

    @Test func cookiesSetByTheServerAreSentBackSavedPrivatelyAndReloaded() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        let dir = try TemporaryDirectory(prefix: "mhz-jar")
        let file = dir.path("cookies.txt")
        let jar = try CookieJar(storage: CookieFile(url: file))
        let client = HTTPClient(cookieJar: jar)
        _ = try await client.perform(HTTPRequest(url: server.baseURL.appendingPathComponent("j/new_captcha")))
        #expect(jar.cookie(named: "bid")?.value == DoubanTestServer.Account.browserID)
        // Several requests at once, on several pooled handles, all see the one jar.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    _ = try await client.perform(HTTPRequest(url: server.baseURL.appendingPathComponent("j/app/radio/channels")))
                }
            }
            try await group.waitForAll()
        }
        let sent = server.calls(to: "/j/app/radio/channels").map { $0.cookies["bid"] }
        #expect(sent == Array(repeating: DoubanTestServer.Account.browserID, count: 4))
        // Saved automatically after the Set-Cookie, mode 0600.
        #expect(try mode(file) == 0o600)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("\tbid\t\(DoubanTestServer.Account.browserID)\n"))

        let reloaded = try CookieJar(storage: CookieFile(url: file))
        _ = try await HTTPClient(cookieJar: reloaded).perform(HTTPRequest(url: server.baseURL.appendingPathComponent("j/v2/playlist")))
        #expect(server.calls(to: "/j/v2/playlist").last?.cookies["bid"] == DoubanTestServer.Account.browserID)
    }

    @Test func anExpiringSetCookieRemovesTheCookie() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        let jar = try CookieJar(storage: nil)
        jar.add(Cookie(domain: "127.0.0.1", name: "dbcl2", value: "\"\(DoubanTestServer.Account.sessionCookie)\""))
        jar.add(Cookie(domain: "127.0.0.1", name: "ck", value: DoubanTestServer.Account.check))
        let client = HTTPClient(cookieJar: jar)
        let logout = server.baseURL.absoluteString + "/partner/logout?source=radio&ck=\(DoubanTestServer.Account.check)&no_login=y"
        _ = try await client.perform(HTTPRequest(url: URL(string: logout)!))
        #expect(server.webLoggedOut)
        #expect(jar.cookie(named: "dbcl2") == nil)
        #expect(jar.cookie(named: "ck") == nil)
    }

    @Test func aWideFileIsTightenedAndEraseDeletesIt() throws {
        let dir = try TemporaryDirectory(prefix: "mhz-jar")
        let file = dir.path("cookies.txt")
        try "127.0.0.1\tFALSE\t/\tFALSE\t0\tbid\tabc\n127.0.0.1\tFALSE\t/\tFALSE\t1000\told\tgone\n"
            .write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        let jar = try CookieJar(storage: CookieFile(url: file))
        #expect(try mode(file) == 0o600)
        #expect(jar.cookies.map(\.name) == ["bid"], "the cookie that expired in 1970 is dropped")
        try jar.save()
        #expect(try mode(file) == 0o600)
        #expect(try String(contentsOf: file, encoding: .utf8).contains("\told\t") == false)
        try jar.erase()
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(jar.cookies.isEmpty)
    }

    @Test func withoutAJarNoCookieIsKeptOrSent() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        let client = HTTPClient()
        _ = try await client.perform(HTTPRequest(url: server.baseURL.appendingPathComponent("j/new_captcha")))
        _ = try await client.perform(HTTPRequest(url: server.baseURL.appendingPathComponent("j/app/radio/channels")))
        #expect(server.calls(to: "/j/app/radio/channels").first?.cookies.isEmpty == true)
    }
}
