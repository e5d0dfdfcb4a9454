import Foundation
import RadioAPI
@testable import Station
import Testing
import TestSupport

/// The web player in a real browser: Debian's Chromium, headless, driven through
/// chromedriver's WebDriver API, against a real station. What the page shows is read through
/// its stable hooks (`<audio>`, `data-channel`, `data-action`, `data-field`, `#status`, the
/// visit list's `data-sid`); what it reported is read from the station's request log and
/// its database. The live channels' tests are a suite of their own (``WebPlayerLiveTests``),
/// with a browser of its own, so the two halves run side by side.
@Suite("Web player in Chromium", .serialized, SharedChromium())
struct WebPlayerBrowserTests: ChromiumPage {
    /// The `/j/v2/playlist` reports of one type the station received, as (sid, channel).
    private func reports(_ log: RequestLog, _ type: String) -> [(sid: String, channel: String)] {
        log.all.filter { $0.path == "/j/v2/playlist" && $0.parameter("type") == type }
            .map { ($0.parameter("sid") ?? "", $0.parameter("channel") ?? "") }
    }

    private func currentSid(_ page: WebDriverSession) async throws -> String {
        try #require(try await page.value(Self.currentSid) as? String)
    }

    @Test("a channel plays; n skips (the station gets s with the sid), space pauses and resumes, trash sends b")
    func listening() async throws {
        let log = RequestLog()
        try await StationFixtures.withDemoStation(onRequest: log.hook) { _, base in
            try await withPage(base) { page in
                try await page.click("[data-channel=\"1\"]")
                try await page.waitFor("the first song to play", Self.playing)
                #expect(reports(log, "n").map(\.channel) == ["1"])
                let first = try await currentSid(page)
                #expect(try await page.value("document.querySelector('[data-channel=\"1\"]').getAttribute('aria-current')")
                    as? String == "true")
                let title = try #require(try await page.value("document.querySelector('[data-field=title]').textContent") as? String)
                #expect(!title.isEmpty && title != "Choose a channel")
                #expect(try await page.value("navigator.mediaSession.metadata.title") as? String == title)

                try await page.press("n")
                try await page.waitFor("another song after n", "(\(Self.currentSid)) !== '\(first)' && \(Self.playing)")
                #expect(reports(log, "s").map(\.sid) == [first])
                #expect(reports(log, "s").map(\.channel) == ["1"])

                // With no control focused, space pauses (on the channel's button, which has
                // the focus after the click, it would press it: keys tests that).
                try await page.run("document.activeElement.blur();")
                try await page.press(" ")
                try await page.waitFor("the pause", "document.querySelector('audio').paused")
                #expect(try await page.value("document.querySelector('[data-action=toggle]').textContent") as? String == "Play")
                try await page.press(" ")
                try await page.waitFor("the sound again", Self.playing)
                #expect(reports(log, "n").count == 1)

                let second = try await currentSid(page)
                try await page.click("[data-action=trash]")
                try await page.waitFor("another song after the trash", "(\(Self.currentSid)) !== '\(second)' && \(Self.playing)")
                #expect(reports(log, "b").map(\.sid) == [second])
                let visit = try await page.value("[...document.querySelectorAll('#visit li')].map((li) => li.dataset.sid)") as? [String]
                #expect(visit?.count == 3 && visit?.last == first)
            }
        }
    }

    @Test("login with the captcha; l likes (aria-pressed, the station's liked songs list it); the red-heart channel plays it")
    func loginLikeRedHeart() async throws {
        let log = RequestLog()
        try await StationFixtures.withDemoStation(onRequest: log.hook) { station, base in
            try await Station.addUser(name: "gina", password: "secret", cost: 4, dataDirectory: station.configuration.dataDirectory)
            try await withPage(base) { page in
                // Anonymous, the red-heart channel needs a login.
                try await page.click("[data-channel=\"-3\"]")
                try await page.waitFor("the red heart's refusal", "document.querySelector('#status').textContent.includes('needs a login')")

                try await page.click("#login-open")
                try await page.waitFor("a captcha", "!!document.querySelector('#login').dataset.captcha && document.querySelector('#captcha').naturalWidth > 0")
                let id = try #require(try await page.value("document.querySelector('#login').dataset.captcha") as? String)
                let solution = try #require(station.captchaStore.answer(for: id))
                try await page.type("gina", into: "#login [name=alias]")
                try await page.type("secret", into: "#login [name=form_password]")
                try await page.type(solution, into: "#login [name=captcha_solution]")
                try await page.click("#login [type=submit]")
                try await page.waitFor("the login", "document.querySelector('#who').textContent === 'gina' && document.querySelector('#login').hidden")

                // Logged in without a liked song: the red heart says to like songs first.
                try await page.click("[data-channel=\"-3\"]")
                try await page.waitFor("the empty red heart", "document.querySelector('#status').textContent.startsWith('Like songs first')")

                try await page.click("[data-channel=\"0\"]")
                try await page.waitFor("a personal song", Self.playing)
                let liked = try await currentSid(page)
                try await page.press("l")
                try await page.waitFor("the pressed heart", "document.querySelector('[data-action=like]').getAttribute('aria-pressed') === 'true'")
                try await waitUntil("the like at the station") { reports(log, "r").map(\.sid) == [liked] }
                // The station's liked songs, read through the app family as the same account.
                let login = try await HTTPFetch.post(base, "/j/app/login", form: "app_name=radio_android&version=100&username=gina&password=secret")
                let json = try login.jsonObject()
                let credentials = "user_id=\(json["user_id"] as? String ?? "")&expire=\(json["expire"] as? String ?? "")&token=\(json["token"] as? String ?? "")"
                try await waitUntil("the liked song in liked_songs") {
                    let songs = try? await HTTPFetch.get(base, "/j/app/radio/liked_songs?app_name=radio_android&version=100&\(credentials)")
                        .jsonObject()["songs"] as? [[String: Any]]
                    return songs?.compactMap { $0["sid"] as? String } == [liked]
                }

                try await page.click("[data-channel=\"-3\"]")
                try await page.waitFor("the liked song on the red heart", "(\(Self.currentSid)) === '\(liked)' && \(Self.playing)")
                #expect(try await page.value("document.querySelector('[data-action=like]').getAttribute('aria-pressed')") as? String == "true")
                try await page.press("l")
                try await page.waitFor("the heart let go", "document.querySelector('[data-action=like]').getAttribute('aria-pressed') === 'false'")
                try await waitUntil("the unlike at the station") { reports(log, "u").map(\.sid) == [liked] }

                try await page.click("#logout")
                try await page.waitFor("the logout", "!document.querySelector('#login-open').hidden && document.cookie.indexOf('ck=') < 0")
                #expect(log.all.contains { $0.path == "/partner/logout" && ($0.parameter("ck") ?? "").count == 4 })
            }
        }
    }

    @Test("a session the station no longer knows: the page says to log in again, clears the cookies and plays on anonymously")
    func lapsedSession() async throws {
        let log = RequestLog()
        try await StationFixtures.withDemoStation(onRequest: log.hook) { _, base in
            try await withPage(base) { page in
                // Cookies of a login the station never made (or forgot).
                try await page.addCookie(name: "dbcl2", value: "\"1000001:0123456789\"")
                try await page.addCookie(name: "ck", value: "\"abcd\"")
                try await page.open(base)
                try await page.waitFor("the page taking the cookies for a login", "!document.querySelector('#logout').hidden")
                try await page.click("[data-channel=\"0\"]")
                try await page.waitFor("the word about the session", "document.querySelector('#status').textContent === 'Your session has ended: log in again.'"
                    + " && !document.querySelector('#login-open').hidden")
                try await page.waitFor("an anonymous song", Self.playing)
                // The dead cookies are gone (the station's logout cleared them).
                try await page.waitFor("the cookies cleared", "document.cookie.indexOf('ck=') < 0")
                #expect(log.all.contains { $0.path == "/partner/logout" && $0.parameter("ck") == nil })
            }
        }
    }

    @Test("a station that goes away: the page says so, keeps the skip, and resumes with it when the station is back")
    func stationAwayAndBack() async throws {
        let log = RequestLog()
        // A fixed port, so the station comes back where the page looks for it.
        let (probe, port) = try LoopbackSocket.listen(backlog: 1)
        close(probe)
        try await StationFixtures.withDemoStation(onRequest: log.hook, adjust: { $0.port = port }) { station, base in
            try await withPage(base) { page in
                try await page.click("[data-channel=\"2\"]")
                try await page.waitFor("a song", Self.playing)
                let before = try await currentSid(page)
                await station.stop()
                try await page.press("n")
                try await page.waitFor("the page saying the station is away",
                                       "document.querySelector('#status').textContent.startsWith('The station is not answering')")
                #expect(reports(log, "s").isEmpty)
                _ = try await station.start()
                try await page.waitFor("the station back and a new song", "(\(Self.currentSid)) !== '\(before)' && \(Self.playing)"
                    + " && document.querySelector('#status').textContent === 'The station is back.'", within: .seconds(30))
                #expect(reports(log, "s").map(\.sid) == [before])
            }
        }
    }

    @Test("synced lyrics follow the song; a song played to its end sends e then p with its sid, and the next one plays")
    func lyricsAndEnd() async throws {
        let music = try TemporaryDirectory(prefix: "mhz-web-lyrics")
        try await offPool {
            try MediaFactory.tone(at: music.path("sung.mp3"), seconds: 3, tags: ["title": "Sung Song", "artist": "Lyricist"])
            try Data("[ti:Sung Song]\n[00:00.40]first line\n[00:01.20]second line\n[00:02.00][00:02.50]third line\n".utf8)
                .write(to: music.path("sung.lrc"))
            try MediaFactory.tone(at: music.path("plain.mp3"), seconds: 3, frequency: 330,
                                  tags: ["title": "Plain Song", "artist": "Hummer"])
        }
        let log = RequestLog()
        try await StationFixtures.withDemoStation(library: music.url, onRequest: log.hook) { _, base in
            try await withPage(base) { page in
                try await page.click("[data-channel=\"0\"]")
                var played: [String] = []
                for _ in 0..<2 {
                    try await page.waitFor("a song", "(\(Self.currentSid)) !== '\(played.last ?? "")' && \(Self.playing)")
                    let sid = try await currentSid(page)
                    played.append(sid)
                    let title = try await page.value("document.querySelector('[data-field=title]').textContent") as? String
                    if title == "Sung Song" {
                        try await page.waitFor("the lyrics", "!document.querySelector('#lyrics-box').hidden")
                        let lines = try await page.value("[...document.querySelectorAll('#lyrics li')].map((li) => li.textContent)")
                        #expect(lines as? [String] == ["first line", "second line", "third line", "third line"])
                        try await page.waitFor("the line being sung", "document.querySelector('#lyrics li.now') !== null"
                            + " && document.querySelector('#lyrics li.now').textContent === 'third line'")
                    } else {
                        #expect(title == "Plain Song")
                        #expect(try await page.value("document.querySelector('#lyrics-box').hidden") as? Bool == true)
                    }
                    try await page.waitFor("the song's end", "document.querySelector('audio').ended || (\(Self.currentSid)) !== '\(sid)'")
                    try await waitUntil("e then p for the song that ended") {
                        let types = log.all.filter { $0.path == "/j/v2/playlist" && $0.parameter("sid") == sid }.compactMap { $0.parameter("type") }
                        return types == ["e", "p"]
                    }
                }
                #expect(Set(played).count == 2)
                try await page.waitFor("a third song", "(\(Self.currentSid)) !== '\(played[1])' && \(Self.playing)")
            }
        }
        music.remove()
    }

    @Test("at 375 px and at 1280 px nothing is wider than the window and every control shows")
    func layouts() async throws {
        let folder = ProcessInfo.processInfo.environment["MHZ_WEB_SCREENSHOTS"]
        try await StationFixtures.withDemoStation { _, base in
            try await withPage(base, width: 375, height: 812) { page in
                // Ambient: the demo's songs with Latin names (the pictures are drawn with
                // whatever fonts the machine has).
                try await page.click("[data-channel=\"1\"]")
                try await page.waitFor("a song", Self.playing)
                for (width, height) in [(375, 812), (1280, 800)] {
                    try await page.resize(width: width, height: height)
                    try await page.waitFor("the \(width) px layout", "window.innerWidth === \(width)")
                    // No sideways scrolling: the document is no wider than the window's client area
                    // (the window less a vertical scroll bar).
                    let widths = try await page.value("[document.documentElement.scrollWidth, document.documentElement.clientWidth]") as? [Int]
                    #expect(widths.map { $0[0] <= $0[1] && $0[1] > width - 30 } == true, "\(widths ?? []) at \(width) px")
                    let hidden = try await page.value("""
                        [...document.querySelectorAll('[data-action], [data-field=title]')].filter((e) => !e.closest('[hidden]')).filter((e) => {
                          const r = e.getBoundingClientRect(); return r.width === 0 || r.right > document.documentElement.clientWidth; }).length
                        """) as? Int
                    #expect(hidden == 0)
                    let png = try await page.screenshot()
                    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
                    // `MHZ_WEB_SCREENSHOTS=docs` writes the web guide's pictures, docs/web-player-*.png (a run by hand).
                    if let folder {
                        try png.write(to: URL(fileURLWithPath: folder).appendingPathComponent("web-player-\(width).png"))
                    }
                }
            }
        }
    }
}
