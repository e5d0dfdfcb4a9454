import Foundation
@testable import Station
import Testing
import TestSupport

/// The web player's keyboard in Chromium: space and Enter press the focused button (space
/// pauses only when no control has the focus), Esc closes the login form, the page's icon is
/// its own.
extension WebPlayerBrowserTests {
    /// The `/j/v2/playlist` reports of `type` the station received, their sids.
    private func sids(_ log: RequestLog, _ type: String) -> [String] {
        log.all.filter { $0.path == "/j/v2/playlist" && $0.parameter("type") == type }.map { $0.parameter("sid") ?? "" }
    }

    @Test("space and Enter press the focused button; space pauses only with no control focused; m mutes and unmutes; Esc closes the login form and gives the focus back; the page's icon shows under its CSP")
    func keys() async throws {
        let log = RequestLog()
        try await StationFixtures.withDemoStation(onRequest: log.hook) { _, base in
            try await withPage(base) { page in
                try await page.click("[data-channel=\"1\"]")
                try await page.waitFor("a song", Self.playing)
                let first = try #require(try await page.value(Self.currentSid) as? String)

                // Space on the focused Skip button skips; it does not pause.
                try await page.run("document.querySelector('[data-action=skip]').focus();")
                try await page.press(" ")
                try await page.waitFor("the next song after space on Skip", "(\(Self.currentSid)) !== '\(first)' && \(Self.playing)")
                #expect(sids(log, "s") == [first])
                #expect(try await page.value("document.activeElement.dataset.action") as? String == "skip")

                // Enter on the focused Like button likes.
                try await page.run("document.querySelector('[data-action=like]').focus();")
                try await page.press("\u{E007}")  // WebDriver's Enter
                try await page.waitFor("the pressed heart", "document.querySelector('[data-action=like]').getAttribute('aria-pressed') === 'true'")
                #expect(try await page.value("document.querySelector('audio').paused") as? Bool == false)

                // With no control focused, space is the shortcut: it pauses and plays.
                try await page.run("document.activeElement.blur();")
                try await page.press(" ")
                try await page.waitFor("the pause", "document.querySelector('audio').paused")
                try await page.press(" ")
                try await page.waitFor("the sound again", Self.playing)
                #expect(sids(log, "s").count == 1)

                // m mutes the page's audio and gives the sound back, playing on.
                try await page.press("m")
                try await page.waitFor("the mute", "document.querySelector('audio').muted")
                try await page.press("m")
                try await page.waitFor("the sound back", "!document.querySelector('audio').muted && \(Self.playing)")

                // Esc closes the login form, from inside it, and the focus goes back to Log in.
                try await page.click("#login-open")
                try await page.waitFor("the form", "!document.querySelector('#login').hidden && document.activeElement.name === 'alias'")
                try await page.press("\u{E00C}")  // WebDriver's Escape
                try await page.waitFor("the form closed", "document.querySelector('#login').hidden")
                #expect(try await page.value("document.activeElement.id") as? String == "login-open")

                // The page's own icon, which its CSP lets it show (so a browser asks for no
                // /favicon.ico; headless Chromium asks for none either way).
                let icon = try await page.value("""
                    (async () => {
                      const image = new Image();
                      image.src = document.querySelector('link[rel=icon]').href;
                      await image.decode();
                      return image.naturalWidth;
                    })()
                    """) as? Int
                #expect(icon == 32)
            }
        }
    }
}
