import Foundation
@testable import Station
import Testing
import TestSupport

/// `GET /`: the web player's document, within its size, with the stable hooks, nothing
/// loaded from another host, and its ETag honoured (304).
@Suite("Web player route")
struct WebPlayerRouteTests {
    private func get(_ port: Int, method: String = "GET", headers: String = "") async throws -> LoopbackExchange {
        try await RawHTTP.exchange(port: port, "\(method) / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(headers)Connection: close\r\n\r\n")
    }

    @Test("GET / is the page: HTML under 150 kB with its ETag, CSP and every hook; HEAD the same headers without the body")
    func page() async throws {
        try await StationFixtures.withDemoStation { _, base in
            let port = try #require(base.port)
            let answer = try await get(port)
            #expect(answer.status == 200)
            #expect(answer.values("content-type") == ["text/html; charset=utf-8"])
            #expect(answer.values("etag") == [WebPlayerPage.etag])
            #expect(answer.values("cache-control") == ["no-cache"])
            #expect(answer.values("content-security-policy").first?.hasPrefix("default-src 'self';") == true)
            #expect(answer.body == WebPlayerPage.body)
            #expect(answer.values("content-length") == [String(WebPlayerPage.body.count)])
            #expect(answer.body.count < 150_000, "the page is \(answer.body.count) bytes")
            let page = String(decoding: answer.body, as: UTF8.self)
            #expect(page.hasPrefix("<!doctype html>"))
            #expect(page.components(separatedBy: "<audio").count == 2, "one <audio>")
            for hook in ["data-action=\"toggle\"", "data-action=\"skip\"", "data-action=\"like\"", "data-action=\"trash\"",
                         "data-field=\"title\"", "data-field=\"artist\"", "data-field=\"album\"", "aria-pressed=\"false\"",
                         "b.dataset.channel = String(c.channel_id)", "navigator.mediaSession"] {
                #expect(page.contains(hook), "\(hook)")
            }
            // Nothing from another host: no absolute URL anywhere in the document.
            #expect(!page.contains("http:") && !page.contains("https:") && !page.contains("src=\"//"))
            // The placeholders were all filled.
            #expect(!page.contains("/*STYLE*/") && !page.contains("/*SCRIPT*/"))

            let head = try await get(port, method: "HEAD")
            #expect(head.status == 200)
            #expect(head.values("etag") == [WebPlayerPage.etag])
            #expect(head.body.isEmpty)
        }
    }

    @Test("If-None-Match with the tag (alone, weak, in a list, or *) is a 304 without a body; another tag is a 200")
    func notModified() async throws {
        try await StationFixtures.withDemoStation { _, base in
            let port = try #require(base.port)
            let tag = WebPlayerPage.etag
            for value in [tag, "W/\(tag)", "\"old\", \(tag)", "*"] {
                let answer = try await get(port, headers: "If-None-Match: \(value)\r\n")
                #expect(answer.status == 304, "\(value)")
                #expect(answer.values("etag") == [tag])
                #expect(answer.body.isEmpty)
            }
            let other = try await get(port, headers: "If-None-Match: \"0-0\"\r\n")
            #expect(other.status == 200)
            #expect(other.body == WebPlayerPage.body)
        }
    }

    @Test("the ETag names the bytes: quoted, and it is what the hash of the body gives")
    func etagShape() {
        #expect(WebPlayerPage.etag.range(of: #"^"[0-9a-f]+-[0-9a-f]+"$"#, options: .regularExpression) != nil)
        #expect(WebPlayerPage.etag.hasSuffix("-" + String(WebPlayerPage.body.count, radix: 16) + "\""))
        #expect(!WebPlayerRoute.matches(["\"x\""], etag: WebPlayerPage.etag))
        #expect(WebPlayerRoute.matches(["\"x\"", " W/\(WebPlayerPage.etag) "], etag: WebPlayerPage.etag))
    }
}
