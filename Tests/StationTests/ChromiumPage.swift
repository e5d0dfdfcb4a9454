import Foundation
import Testing
import TestSupport

/// What the web player's browser suites share: the page's state read through its stable
/// hooks, and a first visit to a station's page in the suite's browser (``SharedChromium``).
protocol ChromiumPage {}

extension ChromiumPage {
    /// The page plays: not paused, and its clock past its first moments.
    static var playing: String {
        "(() => { const a = document.querySelector('audio'); return !a.paused && a.currentTime > 0.3; })()"
    }

    /// The sid of the song playing (the newest entry of the visit list).
    static var currentSid: String {
        "document.querySelector('#visit li') && document.querySelector('#visit li').dataset.sid"
    }

    /// Runs `body` with the suite's browser on the page of the station at `base`, in a
    /// window of `width`×`height`, as a first visit: no cookie and nothing stored from the
    /// test before (cookies name a host, not a port, so each station would see the last
    /// one's).
    func withPage(_ base: URL, width: Int = 1280, height: Int = 800,
                  _ body: (WebDriverSession) async throws -> Void) async throws {
        let page = try #require(SharedChromium.current, "the suite's browser").session
        try await page.resize(width: width, height: height)
        try await page.open(base)
        try await page.deleteCookies()
        try await page.run("localStorage.clear();")
        try await page.open(base)
        try await page.waitFor("the channel list", "document.querySelectorAll('[data-channel]').length >= 2")
        try await body(page)
        // Nothing of this page plays on into the next test.
        try await page.open(URL(string: "about:blank")!)
    }

    /// Runs `body` with `script` run in every document the suite's browser loads, before the
    /// page's own script (``WebDriverSession/runBeforeEachDocument(_:)``), and forgets it
    /// after, also when `body` throws.
    func withScriptBeforePage(_ script: String, _ body: () async throws -> Void) async throws {
        let page = try #require(SharedChromium.current, "the suite's browser").session
        let identifier = try await page.runBeforeEachDocument(script)
        do {
            try await body()
        } catch {
            try? await page.forgetScript(identifier)
            throw error
        }
        try await page.forgetScript(identifier)
    }
}

/// One Chromium for the whole suite (a suite trait whose scope is the suite's run): started
/// before its first test, ended with its data folder after its last, also when one fails.
/// Each test reaches it through ``current``.
struct SharedChromium: SuiteTrait, TestScoping {
    /// The browser of the suite running.
    @TaskLocal static var current: HeadlessChromium?

    /// Once for the suite, not once per test.
    var isRecursive: Bool { false }

    /// Starts the browser, runs the suite with it, and ends it.
    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        let browser = try await HeadlessChromium()
        try await withCleanup {
            try await Self.$current.withValue(browser) { try await function() }
        } cleanup: {
            await browser.close()
        }
    }
}
