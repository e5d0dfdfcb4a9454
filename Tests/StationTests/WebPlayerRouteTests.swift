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

    @Test("the page carries its icon inline (a PNG the CSP allows): no /favicon.ico to ask for")
    func icon() throws {
        let page = WebPlayerPage.document
        let link = try #require(page.range(of: #"<link rel="icon" type="image/png" sizes="32x32" href="data:image/png;base64,([A-Za-z0-9+/=]+)">"#,
                                           options: .regularExpression))
        let encoded = page[link].split(separator: ",").last.map { String($0.dropLast(2)) } ?? ""
        let png = try #require(Data(base64Encoded: encoded))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(WebPlayerRoute.contentSecurityPolicy.contains("img-src 'self' data:;"))
    }

    /// WCAG 2.1's relative luminance of `#rrggbb` or `#rgb`.
    private static func luminance(_ hex: String) -> Double? {
        var digits = hex.dropFirst()
        if digits.count == 3 { digits = Substring(digits.flatMap { [$0, $0] }) }
        guard digits.count == 6, let value = Int(digits, radix: 16) else { return nil }
        func linear(_ shift: Int) -> Double {
            let component = Double((value >> shift) & 0xFF) / 255
            return component <= 0.03928 ? component / 12.92 : pow((component + 0.055) / 1.055, 2.4)
        }
        let red = 0.2126 * linear(16)
        let green = 0.7152 * linear(8)
        return red + green + 0.0722 * linear(0)
    }

    /// The custom properties one `:root{…}` rule of the style sets.
    private static func colours(_ rule: Substring) -> [String: String] {
        var found: [String: String] = [:]
        for match in rule.matches(of: /--([a-z-]+):(#[0-9a-f]{3,6})/) { found[String(match.1)] = String(match.2) }
        return found
    }

    @Test("text reaches 4.5:1 against what it is on, light and dark: the page's text, LIVE and trouble, the selected channel, the pressed heart")
    func contrast() throws {
        let style = WebPlayerPage.style
        let light = Self.colours(try #require(style.firstMatch(of: /:root\{color-scheme[^}]*\}/)?.0))
        let dark = Self.colours(try #require(style.firstMatch(of: /prefers-color-scheme:dark\)\{:root\{[^}]*\}/)?.0))
        // The rules that put these colours on these backgrounds.
        for rule in ["nav button[aria-current=true]{background:var(--accent);color:var(--on-accent)",
                     "[data-action=like][aria-pressed=true]{background:var(--heart);border-color:var(--heart);color:var(--on-heart)",
                     "#live-at[data-edge=true],#live-at[data-edge=away]{color:var(--heart)}",
                     "#status[data-kind=trouble]{color:var(--heart)"] {
            #expect(style.contains(rule), "\(rule)")
        }
        for (scheme, colours) in [("light", light), ("dark", dark.merging(light) { mine, _ in mine })] {
            for (text, ground) in [("fg", "bg"), ("dim", "bg"), ("heart", "bg"), ("accent", "bg"), ("on-accent", "accent"), ("on-heart", "heart")] {
                let a = try #require(colours[text].flatMap(Self.luminance), "\(scheme) --\(text)")
                let b = try #require(colours[ground].flatMap(Self.luminance), "\(scheme) --\(ground)")
                let ratio = (max(a, b) + 0.05) / (min(a, b) + 0.05)
                #expect(ratio >= 4.5, "\(scheme): --\(text) on --\(ground) is \(ratio):1")
            }
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
