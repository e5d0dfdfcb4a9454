import Foundation
import Recommender
@testable import Station
import TestSupport
import Testing

/// `mhz --api web` against the station: the captcha login of the web family (the answer
/// read from the station, as a person reads the image), then headless play through
/// `/j/v2/playlist` with the session cookie, a like that reaches the account.
@Suite(.serialized)
struct WebFamilyRadioTests {
    @Test func theWebFamilyLogsInWithTheCaptchaAndPlaysFromTheStation() async throws {
        let stationData = try TemporaryDirectory(prefix: "mhz-e2e-web-station")
        let log = Locked<[StationRequest]>([])
        // The demo library as a first start leaves it: this test is not about that start.
        try await DemoSeed.copy(to: stationData.path("demo-library"))
        let station = try await Station(configuration: StationConfiguration(
            library: nil, dataDirectory: stationData.url, seed: 7,
            onRequest: { request in log.withLock { $0.append(request) } }))
        let url = try await station.start().absoluteString
        try await withCleanup {
            try await logInAndPlay(station, url: url, stationData: stationData, log: log)
        } cleanup: {
            await station.stop()
        }
        stationData.remove()
    }

    /// The web family's login with the captcha, then headless play with a like.
    private func logInAndPlay(_ station: Station, url: String, stationData: TemporaryDirectory,
                              log: Locked<[StationRequest]>) async throws {
        try await Station.addUser(name: "webby", password: "s3cret pass", email: "webby@example.com", cost: 4,
                                  dataDirectory: stationData.url)
        let data = try TemporaryDirectory(prefix: "mhz-e2e-web-client")
        let environment = ["XDG_CONFIG_HOME": data.url.path]

        let login = try BuiltMhz(["login", "--server", url, "--api", "web", "--username", "webby@example.com",
                                               "--password-stdin", "--data-dir", data.url.path], environment: environment)
        login.send("s3cret pass")
        // mhz fetched a captcha and saved its image: read the answer as a person would.
        func fetchedCaptcha() -> String? { log.withLock { $0 }.last { $0.path == "/misc/captcha" }?.parameter("id") }
        try await waitUntil("mhz fetching the captcha image") { fetchedCaptcha() != nil }
        let captchaID = try #require(fetchedCaptcha())
        let solution = try #require(station.captchaStore.answer(for: captchaID))
        login.send(solution.lowercased())
        #expect(try await login.exit() == 0, "\(login.stderr)")
        #expect(login.lines == ["Logged in to \(url) as webby."])
        let logins = log.withLock { $0 }.filter { $0.path == "/j/login" }
        #expect(logins.count == 1)

        let radio = try BuiltMhz(["--headless", "--server", url, "--api", "web", "--audio-output", "null",
                                               "--data-dir", data.url.path, "--channel", "0"], environment: environment)
        let playing = try await radio.waitFor("playing")
        let sid = try #require(playing.event["sid"])
        #expect(station.servedLibrary.track(sid: sid) != nil)
        let playlists = log.withLock { $0 }.filter { $0.path == "/j/v2/playlist" }
        #expect(playlists.first?.parameter("type") == "n")
        #expect(playlists.first?.parameter("app_name") == "radio_website")
        #expect(log.withLock { $0 }.allSatisfy { $0.path != "/j/app/radio/people" })

        // The like travels with the session cookie: it is the account's heart.
        radio.send("like")
        #expect(await eventually { (try? await station.profile(for: "user:1000001").likes(sid)) == true },
                "the like never reached webby's profile")
        #expect(try await station.profile(for: "anonymous").likes(sid) == false)
        radio.send("quit")
        #expect(try await radio.exit() == 0, "\(radio.stderr)")
    }
}
