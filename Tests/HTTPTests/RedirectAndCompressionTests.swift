import Foundation
import HTTP
import TestSupport
import Testing

/// What libcurl does between the request and the answer, against a raw server on
/// 127.0.0.1 that sends exact bytes: a redirect that sets a cookie is followed and the
/// cookie kept (and written to the jar's file), and a gzip body arrives decoded.
struct RedirectAndCompressionTests {
    /// `/start` redirects to `/final` and sets `probe=42`; `/final` says where it is.
    static func redirecting() throws -> RawHTTPServer {
        try RawHTTPServer { request in
            switch request.target {
            case "/start":
                RawHTTPServer.answer(302, "Found", headers: [("Location", "/final"), ("Set-Cookie", "probe=42; Path=/")])
            case "/final":
                RawHTTPServer.answer(200, "OK", body: Data("landed".utf8))
            default:
                RawHTTPServer.answer(404, "Not Found")
            }
        }
    }

    @Test func aRedirectThatSetsACookieIsFollowedAndTheCookieKept() async throws {
        let server = try Self.redirecting()
        defer { server.stop() }
        let storage = MemoryCookieStorage()
        let jar = try CookieJar(storage: storage)
        let response = try await HTTPClient(cookieJar: jar).perform(HTTPRequest(url: server.url("/start")))
        #expect(response.status == 200)
        #expect(response.body == Data("landed".utf8))
        #expect(response.effectiveURL == server.url("/final"))
        #expect(server.requests.map(\.target) == ["/start", "/final"])
        #expect(server.requests.map { $0.header("cookie") } == [nil, "probe=42"], "sent on the very next hop")
        #expect(jar.cookie(named: "probe")?.value == "42")
        // Kept for the next start too, though the final answer set nothing.
        let saved = try #require(storage.text)
        #expect(saved.contains("\tprobe\t42\n"), "\(saved)")
        let reopened = try CookieJar(storage: storage)
        #expect(reopened.cookie(named: "probe")?.value == "42")
    }

    @Test func withRedirectsOffTheRedirectItselfComesBackAndItsCookieIsStillKept() async throws {
        let server = try Self.redirecting()
        defer { server.stop() }
        let jar = try CookieJar(storage: nil)
        let client = HTTPClient(configuration: HTTPConfiguration(maxRedirects: 0), cookieJar: jar)
        let response = try await client.perform(HTTPRequest(url: server.url("/start")))
        #expect(response.status == 302)
        #expect(response.header("Location") == "/final")
        #expect(server.requests.map(\.target) == ["/start"])
        #expect(jar.cookie(named: "probe")?.value == "42")
    }

    @Test func aGzipBodyArrivesDecoded() async throws {
        // Compressible, and long enough that the encoded form is clearly another size.
        let plain = Data(String(repeating: #"{"sid":"1","title":"兆赫","url":"http://x/1.mp3"},"#, count: 2_000).utf8)
        let encoded = try Self.gzip(plain)
        #expect(encoded.starts(with: [0x1F, 0x8B]) && encoded.count < plain.count / 10)
        let server = try RawHTTPServer { _ in
            RawHTTPServer.answer(200, "OK", headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
                                 body: encoded)
        }
        defer { server.stop() }
        let response = try await HTTPClient().perform(HTTPRequest(url: server.url("/j/app/radio/people")))
        #expect(response.status == 200)
        #expect(response.body == plain)
        #expect(response.header("Content-Encoding") == "gzip")
        #expect(server.requests.first?.header("accept-encoding")?.contains("gzip") == true)
    }

    /// The bytes `gzip -c -n` makes of `data` (gzip is Essential on Debian).
    static func gzip(_ data: Data) throws -> Data {
        try Tool.succeed("/bin/gzip", ["-c", "-n"], stdin: data)
    }
}
