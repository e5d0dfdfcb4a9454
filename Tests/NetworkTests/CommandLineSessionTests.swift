import Foundation
import Radio
import TerminalUI
import TestSupport
import Testing

/// `mhz login`, `mhz logout` and what later runs carry, through the built executable
/// against a recording server on 127.0.0.1 (headless play with libmpv's null output).
@Suite(.serialized)
struct CommandLineSessionTests {
    typealias Account = DoubanTestServer.Account

    final class Setup: Sendable {
        let server: DoubanTestServer
        let home: TemporaryDirectory
        var data: URL { home.path("data") }
        var url: String { server.baseURL.absoluteString }

        init() async throws {
            server = try await DoubanTestServer()
            home = try TemporaryDirectory(prefix: "mhz-cli-net")
        }

        func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) async throws
            -> (status: Int32, stdout: String, stderr: String) {
            try await BuiltMhz.run(arguments + ["--data-dir", data.path], home: home.url,
                                 environment: ["MHZ_LOG_LEVEL": "debug"].merging(environment) { $1 }, stdin: stdin)
        }

        func headless(_ arguments: [String] = []) throws -> BuiltMhz {
            try BuiltMhz(["--headless", "--server", url, "--audio-output", "null", "--data-dir", data.path] + arguments,
                       home: home.url, environment: ["MHZ_LOG_LEVEL": "debug"])
        }

        func file(_ name: String) -> String? {
            FileManager.default.contents(atPath: data.appendingPathComponent(name).path).map { String(decoding: $0, as: UTF8.self) }
        }

        func mode(_ name: String) -> Int? {
            try? FileManager.default.attributesOfItem(atPath: data.appendingPathComponent(name).path)[.posixPermissions] as? Int
        }

        /// Every file under the data directory holding `needle`.
        func files(containing needle: String) -> [String] {
            let walker = FileManager.default.enumerator(at: data, includingPropertiesForKeys: nil)
            var hits: [String] = []
            while let url = walker?.nextObject() as? URL {
                if let bytes = FileManager.default.contents(atPath: url.path), bytes.range(of: Data(needle.utf8)) != nil {
                    hits.append(url.lastPathComponent)
                }
            }
            return hits
        }
    }

    @Test func appLoginThenHeadlessPlayCarriesTheTokensAndLogoutForgetsThem() async throws {
        let setup = try await Setup()
        defer { setup.server.stop() }
        let login = try await setup.run(["login", "--server", setup.url, "--api", "app", "--username", Account.email,
                                         "--password-stdin"], stdin: Account.password + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout == "Logged in to \(setup.url) as \(Account.name).\n")
        #expect(login.stderr == "")
        #expect(setup.mode("session.json") == 0o600)
        #expect(setup.files(containing: Account.password).isEmpty)

        let play = try setup.headless(["--channel", "0"])
        let playing = try await play.waitFor("playing", timeout: 60).event
        #expect(playing["sid"] == "201")
        // Quit once the song is under way, so there is a position to resume from below.
        try await play.waitForPosition()
        play.send("quit")
        #expect(try await play.exit() == 0)
        let first = try #require(setup.server.calls(to: "/j/app/radio/people").first)
        #expect(first.rawQuery ==
            "app_name=radio_android&version=100&user_id=\(Account.userID)&expire=\(Account.expire)&token=\(Account.token)&channel=0&type=n&sid=&h=&format=original")

        // The log names the requests, redacted; no secret anywhere in the data directory
        // but the token in the session file.
        let log = try #require(setup.file("mhz.log"))
        #expect(log.contains("POST \(setup.url)/j/app/login ("))
        #expect(log.contains("&token=<redacted>&channel=0&type=n&sid=&h=&format=original"))
        #expect(setup.files(containing: Account.token) == ["session.json"])
        #expect(setup.files(containing: Account.password).isEmpty)

        let logout = try await setup.run(["logout"])
        #expect(logout.status == 0)
        #expect(logout.stdout == "Logged out of \(setup.url).\n")
        #expect(setup.file("session.json") == nil)
        let again = try await setup.run(["logout"])
        #expect(again.stdout == "Not logged in.\n")

        let anonymous = try setup.headless(["--channel", "0"])
        // A restart resumes the song that was playing; what comes next is the anonymous list.
        #expect(try await anonymous.waitFor("playing", timeout: 60).event["sid"] == "201")
        anonymous.send("skip")
        try await anonymous.waitFor("playing", timeout: 60) { $0["sid"] == "101" }
        anonymous.send("quit")
        #expect(try await anonymous.exit() == 0)
        #expect(setup.server.calls(to: "/j/app/radio/people").last?.parameter("token") == nil)
    }

    @Test func anExpiredSessionIsAnnouncedOnceAndPlaybackGoesOnAnonymously() async throws {
        let setup = try await Setup()
        defer { setup.server.stop() }
        let login = try await setup.run(["login", "--server", setup.url, "--username", Account.name, "--password-stdin"],
                                        stdin: Account.password + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        setup.server.expireSessions()
        let play = try setup.headless()
        let playing = try await play.waitFor("playing", timeout: 60).event
        #expect(playing["sid"] == "101")
        let errors = play.events.filter { $0["event"] == "error" }.map { $0["message"] }
        #expect(errors == [ErrorText.describe(.service(.expired))])
        #expect(errors.first == "Login session expired — playing on anonymously; `mhz login` signs you in again.")
        play.send("quit")
        #expect(try await play.exit() == 0)
        #expect(setup.file("session.json") == nil)
    }

    @Test func theRedHeartChannelAnonymouslySaysWhy() async throws {
        let setup = try await Setup()
        defer { setup.server.stop() }
        let play = try setup.headless(["--channel", "-3"])
        let error = try await play.waitFor("error", timeout: 60).event
        #expect(error["message"] == "The red-heart channel needs a login — run `mhz login`, or pick another channel.")
        play.send("quit")
        #expect(try await play.exit() == 0)
    }

    @Test func webLoginWithoutATerminalTakesTheCaptchaFromStdinAndLaterRunsSendTheCookies() async throws {
        let setup = try await Setup()
        defer { setup.server.stop() }
        let login = try await setup.run(["login", "--server", setup.url, "--api", "web", "--username", Account.name,
                                         "--password-stdin"],
                                        stdin: Account.password + "\n" + Account.captchaSolution + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stderr == "mhz: captcha image saved to \(setup.data.path)/captcha.jpg: open it and give its letters as the next line of stdin\n")
        #expect(login.stdout == "Logged in to \(setup.url) as \(Account.name).\n")
        #expect(setup.mode("cookies.txt") == 0o600)
        #expect(setup.mode("session.json") == 0o600)
        #expect(setup.files(containing: Account.password).isEmpty)

        let channels = try await setup.run(["channels", "--server", setup.url, "--api", "web"])
        #expect(channels.status == 0, "\(channels.stderr)")
        #expect(channels.stdout == "0  私人兆赫\n1  华语\n")
        #expect(setup.server.calls(to: "/j/app/radio/channels").last?.cookies["dbcl2"] == "\"\(Account.sessionCookie)\"")

        let logout = try await setup.run(["logout"])
        #expect(logout.stdout == "Logged out of \(setup.url).\n")
        #expect(setup.server.webLoggedOut)
        #expect(setup.file("cookies.txt") == nil && setup.file("session.json") == nil)
    }

    @Test func aRefusedLoginIsOneLineAndExitStatusOne() async throws {
        let setup = try await Setup()
        defer { setup.server.stop() }
        let wrong = try await setup.run(["login", "--server", setup.url, "--username", Account.email, "--password-stdin"],
                                        stdin: "not it\n")
        #expect(wrong.status == 1)
        #expect(wrong.stderr == "mhz: wrong password for \(Account.email) on \(setup.url): run `mhz login` again\n")
        let empty = try await setup.run(["login", "--server", setup.url, "--username", Account.email, "--password-stdin"])
        #expect(empty.status == 1)
        #expect(empty.stderr == "mhz: --password-stdin: stdin held no password (give it as the first line)\n")
        #expect(setup.file("session.json") == nil)
    }

    @Test func theProxyComesFromTheEnvironmentOrTheConfig() async throws {
        let setup = try await Setup()
        defer { setup.server.stop() }
        let viaEnvironment = try await setup.run(["channels", "--server", "http://radio.invalid"],
                                                 environment: ["http_proxy": setup.url])
        #expect(viaEnvironment.status == 0, "\(viaEnvironment.stderr)")
        #expect(viaEnvironment.stdout == "0  私人兆赫\n1  华语\n")
        #expect(setup.server.calls(to: "/j/app/radio/channels").last?.headers["host"] == "radio.invalid")

        let config = setup.home.path("mhz.toml")
        try "proxy = \"\(setup.url)\"\n".write(to: config, atomically: true, encoding: .utf8)
        let viaConfig = try await setup.run(["channels", "--server", "http://radio.invalid", "--config", config.path])
        #expect(viaConfig.status == 0, "\(viaConfig.stderr)")

        // An empty proxy turns the environment's off: radio.invalid does not resolve.
        try "proxy = \"\"\n".write(to: config, atomically: true, encoding: .utf8)
        let none = try await setup.run(["channels", "--server", "http://radio.invalid", "--config", config.path],
                                       environment: ["http_proxy": setup.url])
        #expect(none.status == 1)
        #expect(none.stderr.hasPrefix("mhz: http://radio.invalid unreachable ("), "\(none.stderr)")
        #expect(setup.server.calls(to: "/j/app/radio/channels").count == 2)
    }

    @Test func apiFamilyUsageErrors() async throws {
        let setup = try await Setup()
        defer { setup.server.stop() }
        let web = try await setup.run(["channels", "--api", "web"])
        #expect(web.status == 2)
        #expect(web.stderr == "mhz: --api web needs --server (the embedded station speaks the app API): e.g. --server https://douban.fm\n")
        let unknown = try await setup.run(["login", "--api", "v2", "--server", setup.url])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "mhz: --api v2 is not an API family mhz speaks: use --api app or --api web\n")
        let config = setup.home.path("mhz.toml")
        try "verify_tls = \"no\"\n".write(to: config, atomically: true, encoding: .utf8)
        let badKey = try await setup.run(["channels", "--config", config.path])
        #expect(badKey.status == 1)
        #expect(badKey.stderr == "mhz: config file \(config.path): \"verify_tls\" must be true or false — fix it (see Config/config.example.toml)\n")
    }
}
