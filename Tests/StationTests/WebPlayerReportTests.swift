import Foundation
@testable import Station
import Testing
import TestSupport

/// The web player's script under its Content-Security-Policy, and its reports by the report
/// rule (docs/ARCHITECTURE.md): a report the station answered is never sent again, one
/// answered "not now" is. In Chromium, against a real station; the answers the station would
/// not give are made by a wrapper of `fetch` the test puts in the page before its script.
extension WebPlayerBrowserTests {
    @Test("the page runs under its CSP: its stylesheet and script load from their files, and no directive is violated")
    func underItsPolicy() async throws {
        try await withScriptBeforePage("""
            window.violations = [];
            document.addEventListener("securitypolicyviolation", (e) => window.violations.push(e.violatedDirective + " " + e.blockedURI));
            """) {
            try await StationFixtures.withDemoStation { _, base in
                try await withPage(base) { page in
                    try await page.click("[data-channel=\"1\"]")
                    try await page.waitFor("a song", Self.playing)
                    let sheets = try await page.value("[...document.styleSheets].map((s) => new URL(s.href).pathname)") as? [String]
                    #expect(sheets == ["/web/player.css"])
                    // The stylesheet applies: the heading has the accent's colour, not the default black.
                    #expect(try await page.value("getComputedStyle(document.querySelector('h1')).color") as? String != "rgb(0, 0, 0)")
                    #expect(try await page.value("window.violations") as? [String] == [])
                }
            }
        }
    }

    @Test("a like answered 500 is not sent again; an unlike answered 503 is, once the station takes it; the skip after them goes on")
    func reportRule() async throws {
        let log = RequestLog()
        // The first `r` is answered 500 and the first `u` 503 without reaching the station;
        // every request of those types is counted.
        try await withScriptBeforePage("""
            window.asked = { r: 0, u: 0 };
            const fetched = window.fetch;
            window.fetch = async (url, options) => {
              const type = new URL(String(url), location.href).searchParams.get("type");
              if (String(url).startsWith("/j/v2/playlist") && (type === "r" || type === "u")) {
                window.asked[type] += 1;
                if (window.asked[type] === 1) {
                  const status = type === "r" ? 500 : 503;
                  return new Response(JSON.stringify({ r: 1, err: "status " + status }), { status, headers: { "Content-Type": "application/json" } });
                }
              }
              return fetched(url, options);
            };
            """) {
            try await StationFixtures.withDemoStation(onRequest: log.hook) { _, base in
                try await withPage(base) { page in
                    try await page.click("[data-channel=\"1\"]")
                    try await page.waitFor("a song", Self.playing)
                    let sid = try #require(try await page.value(Self.currentSid) as? String)
                    try await page.run("document.activeElement.blur();")
                    try await page.press("l")
                    try await page.press("l")
                    try await page.press("n")
                    // Reports go in order: the skip reaches the station after the like and the
                    // unlike are settled, so whatever they were going to send has been sent.
                    try await waitUntil("the skip at the station") {
                        log.all.contains { $0.path == "/j/v2/playlist" && $0.parameter("type") == "s" }
                    }
                    let types = log.all.filter { $0.path == "/j/v2/playlist" && $0.parameter("sid") == sid }.compactMap { $0.parameter("type") }
                    #expect(types == ["u", "s"])
                    #expect(try await page.value("window.asked") as? [String: Int] == ["r": 1, "u": 2])
                }
            }
        }
    }
}
