import Foundation
@testable import Station
import Testing
import TestSupport

/// The web player's files: `GET /` is the document, within its size, with the stable hooks;
/// every file it links (its stylesheet, its script) is served at its path with its type;
/// nothing is loaded from another host or written inline, which the Content-Security-Policy
/// holds it to; each file's ETag is honoured (304).
@Suite("Web player route")
struct WebPlayerRouteTests {
    private func get(_ port: Int, _ path: String = "/", method: String = "GET", headers: String = "") async throws -> LoopbackExchange {
        try await RawHTTP.exchange(port: port, "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(headers)Connection: close\r\n\r\n")
    }

    @Test("GET / is the page: HTML under 150 kB with its ETag, CSP and every hook; HEAD the same headers without the body")
    func page() async throws {
        try await StationFixtures.withDemoStation { _, base in
            let port = try #require(base.port)
            let document = WebPlayerPage.document
            let answer = try await get(port)
            #expect(answer.status == 200)
            #expect(answer.values("content-type") == ["text/html; charset=utf-8"])
            #expect(answer.values("etag") == [document.etag])
            #expect(answer.values("cache-control") == ["no-cache"])
            #expect(answer.values("content-security-policy") == [WebPlayerRoute.contentSecurityPolicy])
            #expect(answer.body == document.body)
            #expect(answer.values("content-length") == [String(document.body.count)])
            let total = WebPlayerPage.assets.map(\.body.count).reduce(0, +)
            #expect(total < 150_000, "the page's files are \(total) bytes")
            let page = String(decoding: answer.body, as: UTF8.self)
            #expect(page.hasPrefix("<!doctype html>"))
            #expect(page.components(separatedBy: "<audio").count == 2, "one <audio>")
            for hook in ["data-action=\"toggle\"", "data-action=\"skip\"", "data-action=\"like\"", "data-action=\"trash\"",
                         "data-field=\"title\"", "data-field=\"artist\"", "data-field=\"album\"", "aria-pressed=\"false\""] {
                #expect(page.contains(hook), "\(hook)")
            }
            let script = WebPlayerPage.script.text + WebPlayerPage.liveScript.text
            for hook in ["b.dataset.channel = id", "b.dataset.live = id", "navigator.mediaSession"] {
                #expect(script.contains(hook), "\(hook)")
            }
            // Nothing from another host: no absolute URL anywhere in the page's files.
            for asset in WebPlayerPage.assets {
                let text = asset.text
                #expect(!text.contains("http:") && !text.contains("https:") && !text.contains("src=\"//"), "\(asset.path)")
            }

            let head = try await get(port, method: "HEAD")
            #expect(head.status == 200)
            #expect(head.values("etag") == [document.etag])
            #expect(head.body.isEmpty)
        }
    }

    /// The paths the document's `href` and `src` attributes name on the station (not its
    /// `data:` icon).
    private static func linked(_ page: String) -> [String] {
        page.matches(of: /(?:href|src)="(\/[^"]*)"/).map { String($0.1) }
    }

    @Test("the CSP allows no inline script or style, and the page has none: every file it links is served with its type, CSP and ETag")
    func linkedFiles() async throws {
        let policy = WebPlayerRoute.contentSecurityPolicy
        #expect(policy == "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self'; "
            + "connect-src 'self'; frame-ancestors 'none'; form-action 'self'")
        #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"))
        let page = WebPlayerPage.document.text
        // Nothing inline for the CSP to refuse: no <script> with a body, no <style>, no style
        // attribute, no event handler attribute, no javascript: URL.
        #expect(page.matches(of: /<script(?![^>]*\bsrc=)[^>]*>/).isEmpty)
        #expect(page.matches(of: /<script[^>]*>[^<]+<\/script>/).isEmpty)
        #expect(!page.contains("<style"))
        #expect(page.matches(of: /\s(?:style|on[a-z]+)\s*=/).isEmpty)
        #expect(!page.contains("javascript:"))
        // Each file: from its link in the document, with its own type.
        let types = ["/web/player.css": "text/css; charset=utf-8", "/web/player.js": "text/javascript; charset=utf-8",
                     "/web/player-live.js": "text/javascript; charset=utf-8"]
        #expect(Self.linked(page).sorted() == types.keys.sorted())
        #expect(page.contains("<link rel=\"stylesheet\" href=\"/web/player.css\">"))
        #expect(page.contains("<script src=\"/web/player-live.js\" defer></script>\n<script src=\"/web/player.js\" defer></script>"))
        try await StationFixtures.withDemoStation { _, base in
            let port = try #require(base.port)
            for path in Self.linked(page) {
                let asset = try #require(WebPlayerPage.assets.first { $0.path == path }, "\(path)")
                for method in ["GET", "HEAD"] {
                    let answer = try await get(port, path, method: method)
                    #expect(answer.status == 200, "\(method) \(path)")
                    #expect(answer.values("content-type") == [types[path] ?? ""], "\(method) \(path)")
                    #expect(answer.values("etag") == [asset.etag], "\(method) \(path)")
                    #expect(answer.values("cache-control") == ["no-cache"], "\(method) \(path)")
                    #expect(answer.values("x-content-type-options") == ["nosniff"], "\(method) \(path)")
                    #expect(answer.values("content-security-policy") == [policy], "\(method) \(path)")
                    #expect(answer.values("content-length") == [String(asset.body.count)], "\(method) \(path)")
                    #expect(answer.body == (method == "GET" ? asset.body : Data()), "\(method) \(path)")
                }
                let again = try await get(port, path, headers: "If-None-Match: \(asset.etag)\r\n")
                #expect(again.status == 304 && again.body.isEmpty, "\(path)")
            }
            // The files are the ones in the repository, byte for byte.
            let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Sources/Station/Web/Page")
            for (asset, file) in [(WebPlayerPage.document, "player.html"), (WebPlayerPage.style, "player.css"),
                                  (WebPlayerPage.script, "player.js"), (WebPlayerPage.liveScript, "player-live.js")] {
                #expect(try Data(contentsOf: folder.appendingPathComponent(file)) == asset.body, "\(file)")
            }
            let missing = try await get(port, "/web/nothing.js")
            #expect(missing.status == 404)
        }
    }

    @Test("If-None-Match with the tag (alone, weak, in a list, or *) is a 304 without a body; another tag is a 200")
    func notModified() async throws {
        try await StationFixtures.withDemoStation { _, base in
            let port = try #require(base.port)
            let tag = WebPlayerPage.document.etag
            for value in [tag, "W/\(tag)", "\"old\", \(tag)", "*"] {
                let answer = try await get(port, headers: "If-None-Match: \(value)\r\n")
                #expect(answer.status == 304, "\(value)")
                #expect(answer.values("etag") == [tag])
                #expect(answer.body.isEmpty)
            }
            let other = try await get(port, headers: "If-None-Match: \"0-0\"\r\n")
            #expect(other.status == 200)
            #expect(other.body == WebPlayerPage.document.body)
        }
    }

    @Test("the page carries its icon inline (a PNG the CSP allows): no /favicon.ico to ask for")
    func icon() throws {
        let page = WebPlayerPage.document.text
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
        let style = WebPlayerPage.style.text
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

    @Test("each file's ETag names its bytes: quoted, and it is what the hash of the body gives")
    func etagShape() {
        for asset in WebPlayerPage.assets {
            #expect(asset.etag.range(of: #"^"[0-9a-f]+-[0-9a-f]+"$"#, options: .regularExpression) != nil)
            #expect(asset.etag.hasSuffix("-" + String(asset.body.count, radix: 16) + "\""))
            #expect(!WebPlayerRoute.matches(["\"x\""], etag: asset.etag))
            #expect(WebPlayerRoute.matches(["\"x\"", " W/\(asset.etag) "], etag: asset.etag))
        }
        #expect(Set(WebPlayerPage.assets.map(\.etag)).count == WebPlayerPage.assets.count)
    }
}
