import Foundation
@testable import Station
import Testing
import TestSupport

/// The web player's keyboard and what it shows when things change under it, in Chromium:
/// space and Enter press the focused button (space pauses only when no control has the
/// focus), Esc closes the login form, the page's icon is its own; a live channel shows when
/// the station stops answering, and shows no cover left over from the radio.
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

    @Test("a live channel tuned in after a radio channel shows no cover and no alt text of the radio's last song")
    func liveAfterRadioHasNoCover() async throws {
        try await StationFixtures.withDemoStation { _, base in
            try await withPage(base) { page in
                try await page.click("[data-channel=\"1\"]")
                try await page.waitFor("a song with its cover", "\(Self.playing) && document.querySelector('#cover').alt !== ''")
                try await page.click("[data-live=\"1\"]")
                let cover = try await page.value("[document.querySelector('#cover').hasAttribute('src'), document.querySelector('#cover').alt]") as? [Any]
                #expect(cover?.first as? Bool == false)
                #expect(cover?.last as? String == "")
            }
        }
    }

    @Test("a live channel whose station stops answering says so instead of LIVE, and plays live again when it is back")
    func liveStationAway() async throws {
        let music = try await LiveFixtures.library
        // A fixed port, so the station comes back where the page looks for it.
        let (probe, port) = try LoopbackSocket.listen(backlog: 1)
        close(probe)
        try await StationFixtures.withDemoStation(library: music, adjust: {
            $0.port = port
            $0.live.segmentDuration = .seconds(1)
        }) { station, base in
            let channels = try await HTTPFetch.get(base, "/j/app/radio/channels").jsonObject()["channels"] as? [[String: Any]] ?? []
            let channel = String(try #require(channels.first { $0["name"] as? String == LiveFixtures.genre }?["channel_id"] as? Int))
            try await withPage(base) { page in
                try await page.click("[data-live=\"\(channel)\"]")
                try await page.waitFor("the live channel to play", Self.livePlaying + " && document.querySelector('[data-field=live]').textContent === 'LIVE'")
                await station.stop()
                try await page.waitFor("the page saying the station is not answering",
                                       "document.querySelector('[data-field=live]').textContent === 'Not answering'"
                                           + " && document.querySelector('#status').textContent.startsWith('The station is not answering')")
                #expect(try await page.value("document.querySelector('[data-field=live]').dataset.edge") as? String == "away")
                _ = try await station.start()
                try await page.waitFor("live again", "document.querySelector('[data-field=live]').textContent === 'LIVE'"
                    + " && document.querySelector('#status').textContent === 'The station is back.' && \(Self.livePlaying)",
                    within: .seconds(30))
            }
        }
    }
}
