import Foundation
@testable import mhz
import Settings
import Store
import TestSupport
import Testing

/// Scrobbling through the built `mhz` against stand-ins of ListenBrainz and Last.fm that
/// check what their documentation asks (the token, the signature, the fields): a listen
/// and a like made while both services are down wait in the outbox through a `kill -9`
/// and reach both after the restart; logging in and the status line.
@Suite(.serialized)
struct ScrobblingTests {
    private static let token = "lb-token-4f1c9e"
    private static let apiKey = "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6"
    private static let secret = "s3cr3t-5hared-9a8b7c"
    private static let sessionKey = "sk-d580d57f32848f5dcf574d1ce18d78b2"

    final class Setup: Sendable {
        let station: DoubanTestServer
        let brainz: ListenBrainzTestServer
        let fm: LastFMTestServer
        let home: TemporaryDirectory
        var data: URL { home.path("data") }
        var config: URL { home.path("config.toml") }

        init() async throws {
            station = try await DoubanTestServer()
            brainz = try await ListenBrainzTestServer(token: ScrobblingTests.token)
            fm = try await LastFMTestServer(apiKey: ScrobblingTests.apiKey, secret: ScrobblingTests.secret,
                                            sessionKey: ScrobblingTests.sessionKey)
            home = try TemporaryDirectory(prefix: "mhz-scrobble")
        }

        func writeConfig(session: Bool = true, token: Bool = true) throws {
            var lines = ["[scrobble]"]
            if token { lines.append("listenbrainz_token = \"\(ScrobblingTests.token)\"") }
            lines += ["listenbrainz_url = \"\(brainz.baseURL.absoluteString)\"",
                      "lastfm_api_key = \"\(ScrobblingTests.apiKey)\"", "lastfm_api_secret = \"\(ScrobblingTests.secret)\"",
                      "lastfm_url = \"\(fm.url.absoluteString)\""]
            if session { lines.append("lastfm_session_key = \"\(ScrobblingTests.sessionKey)\"") }
            try (lines.joined(separator: "\n") + "\n").write(to: config, atomically: true, encoding: .utf8)
        }

        func headless() throws -> BuiltMhz {
            try BuiltMhz(["--headless", "--server", station.baseURL.absoluteString, "--audio-output", "null",
                          "--data-dir", data.path, "--config", config.path],
                         home: home.url, environment: ["MHZ_LOG_LEVEL": "trace"])
        }

        func run(_ arguments: [String], stdin: String = "") async throws -> (status: Int32, stdout: String, stderr: String) {
            try await BuiltMhz.run(arguments + ["--data-dir", data.path, "--config", config.path], home: home.url,
                                   environment: ["MHZ_LOG_LEVEL": "trace"], stdin: stdin)
        }

        func stop() async {
            await station.shutDown()
            await brainz.stop()
            await fm.stop()
        }
    }

    @Test func aListenAndALikeMadeWhileTheServicesAreDownSurviveAKillAndReachBothAfterTheRestart() async throws {
        let setup = try await Setup()
        try await withCleanup({ try await run(setup) }, cleanup: { await setup.stop() })
    }

    private func run(_ setup: Setup) async throws {
        // 31 seconds: long enough to count (over 30), after 15.5 seconds of play.
        setup.station.setSongLength(31)
        setup.station.setMediaSeconds(31)
        setup.brainz.setAvailable(false)
        setup.fm.setAvailable(false)
        try setup.writeConfig()
        let before = Int64(Date().timeIntervalSince1970)
        let first = try setup.headless()
        let playing = try await first.waitFor("playing")
        let sid = try #require(playing.event["sid"])
        let title = try #require(playing.event["title"])
        first.send("like")
        try await first.waitFor("liked")
        // After half the song, the listen is kept for both services, behind the like.
        let database = try MhzDatabase(path: setup.data.appendingPathComponent("mhz.sqlite"))
        try await waitUntil("the listen kept for both services", within: .seconds(40)) {
            (try? database.pendingScrobbles().map { "\($0.service) \($0.kind)" })
                == ["lastfm love", "listenbrainz listen", "lastfm listen"]
                || (try? database.pendingScrobbles().map { "\($0.service) \($0.kind)" })
                == ["lastfm love", "lastfm listen", "listenbrainz listen"]
        }
        // ListenBrainz heard of the song playing and of the listen, and was down both times.
        try await waitUntil("ListenBrainz tried twice") {
            setup.brainz.requests.filter { $0.path == "/1/submit-listens" }.count >= 2
        }
        let started = Int64(Date().timeIntervalSince1970)
        first.kill()
        #expect(setup.brainz.submissions.isEmpty && setup.fm.taken("track.scrobble").isEmpty)
        #expect(setup.brainz.requests.allSatisfy { $0.status == 503 && $0.authorization == "Token \(Self.token)" })

        let status = try await setup.run(["scrobble", "status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout == """
            ListenBrainz: on (\(setup.brainz.baseURL.absoluteString)), 1 scrobble waiting
            Last.fm: on (\(setup.fm.url.absoluteString)), 2 scrobbles waiting

            """)

        // The restart: what waited goes first, in order.
        setup.brainz.setAvailable(true)
        setup.fm.setAvailable(true)
        let second = try setup.headless()
        try await waitUntil("both outboxes delivered") {
            !setup.brainz.submissions.filter { $0.listenType == "single" }.isEmpty
                && !setup.fm.taken("track.scrobble").isEmpty && !setup.fm.taken("track.love").isEmpty
        }
        try await second.waitFor("playing")
        // The second run's song is announced as playing now to both: waited for as an event
        // before the quit, which on a busy machine may otherwise come before Last.fm's call.
        try await waitUntil("the song announced as playing now to both") {
            setup.brainz.submissions.contains { $0.listenType == "playing_now" }
                && !setup.fm.taken("track.updateNowPlaying").isEmpty
        }
        second.send("quit")
        #expect(try await second.exit() == 0, "\(second.stderr)")

        let single = try #require(setup.brainz.submissions.first { $0.listenType == "single" })
        let listenedAt = try #require(single.listens.first?.listenedAt)
        #expect(listenedAt >= before && listenedAt <= started)
        #expect(single.body == #"{"listen_type":"single","payload":[{"listened_at":\#(listenedAt),"track_metadata":{"additional_info":{"duration_ms":31000,"submission_client":"mhz","submission_client_version":"\#(ScrobbleSettings.client.version)"},"artist_name":"Test Artist","release_name":"Test Album","track_name":"\#(title)"}}]}"#)
        #expect(setup.brainz.submissions.filter { $0.listenType == "single" }.count == 1)
        let scrobble = try #require(setup.fm.taken("track.scrobble").first)
        #expect(scrobble.form.map { "\($0.0)=\($0.1)" }.filter { !$0.hasPrefix("api_sig=") } == [
            "method=track.scrobble", "artist[0]=Test Artist", "track[0]=\(title)", "timestamp[0]=\(listenedAt)",
            "album[0]=Test Album", "duration[0]=31", "chosenByUser[0]=0", "api_key=\(Self.apiKey)",
            "sk=\(Self.sessionKey)", "format=json"])
        #expect(setup.fm.taken("track.scrobble").count == 1)
        let love = try #require(setup.fm.taken("track.love").first)
        #expect(love.field("track") == title && love.field("artist") == "Test Artist")
        _ = sid

        let after = try await setup.run(["scrobble", "status"])
        #expect(after.stdout.contains("ListenBrainz: on") && after.stdout.contains("1 scrobble waiting") == false)
        #expect(after.stdout.split(separator: "\n").allSatisfy { $0.hasSuffix("0 scrobbles waiting") })
        // No secret reached the log.
        let log = try String(contentsOf: setup.data.appendingPathComponent("mhz.log"), encoding: .utf8)
        #expect(log.contains("took 1 scrobble"))
        for secret in [Self.token, Self.secret, Self.sessionKey, Self.apiKey] { #expect(!log.contains(secret)) }
    }

    @Test func loginWritesTheListenBrainzTokenAndTheLastFMSessionIntoAPrivateConfig() async throws {
        let setup = try await Setup()
        try await withCleanup({
            try setup.writeConfig(session: false, token: false)
            // A wrong token: one line, nothing written.
            let wrong = try await setup.run(["scrobble", "login", "listenbrainz"], stdin: "not-the-token\n")
            #expect(wrong.status == 1)
            #expect(wrong.stderr.hasSuffix("mhz: ListenBrainz says the token is not valid: copy it again from listenbrainz.org/settings\n"))
            let good = try await setup.run(["scrobble", "login", "listenbrainz"], stdin: "\(Self.token)\n")
            #expect(good.status == 0, "\(good.stderr)")
            #expect(good.stdout.hasPrefix("ListenBrainz: scrobbling as \(ListenBrainzTestServer.userName) from the next mhz"))
            #expect(setup.brainz.requests.map(\.status) == [401, 200])

            // Last.fm: the token, the page to approve it on; not approved yet, then approved.
            let early = try await setup.run(["scrobble", "login", "lastfm"], stdin: "\n")
            #expect(early.status == 1)
            #expect(early.stdout == """
                Open this page, allow mhz to use your Last.fm account, then press Enter here:
                https://www.last.fm/api/auth/?api_key=\(Self.apiKey)&token=\(LastFMTestServer.token)
                Last.fm has not seen your approval yet: allow mhz on the page, then press Enter.

                """)
            setup.fm.approve()
            let login = try await setup.run(["scrobble", "login", "lastfm"], stdin: "\n")
            #expect(login.status == 0, "\(login.stderr)")
            #expect(login.stdout.hasSuffix("Last.fm: scrobbling as \(LastFMTestServer.userName) from the next mhz (session saved in \(setup.config.path)).\n"))
            #expect(setup.fm.calls.map(\.method) == ["auth.getToken", "auth.getSession", "auth.getToken", "auth.getSession"])
            #expect(setup.fm.calls.map(\.error) == [nil, 14, nil, nil])

            let written = try String(contentsOf: setup.config, encoding: .utf8)
            #expect(written.hasPrefix("[scrobble]\nlistenbrainz_url = "))
            #expect(written.contains("\nlastfm_url = \"\(setup.fm.url.absoluteString)\"\nlistenbrainz_token = \"\(Self.token)\"\nlastfm_session_key = \"\(Self.sessionKey)\"\n"))
            let mode = try FileManager.default.attributesOfItem(atPath: setup.config.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            let status = try await setup.run(["scrobble", "status"])
            #expect(status.stdout == """
                ListenBrainz: on (\(setup.brainz.baseURL.absoluteString)), 0 scrobbles waiting
                Last.fm: on (\(setup.fm.url.absoluteString)), 0 scrobbles waiting

                """)
            let log = try String(contentsOf: setup.data.appendingPathComponent("mhz.log"), encoding: .utf8)
            for secret in [Self.token, Self.secret, Self.sessionKey] { #expect(!log.contains(secret)) }
        }, cleanup: { await setup.stop() })
    }

    @Test func refusedCredentialsAreOneLineEachAndAreNotAskedAgainThisRun() async throws {
        let setup = try await Setup()
        try await withCleanup({
            try """
                [scrobble]
                listenbrainz_token = "not-the-token"
                listenbrainz_url = "\(setup.brainz.baseURL.absoluteString)"
                lastfm_api_key = "\(Self.apiKey)"
                lastfm_api_secret = "\(Self.secret)"
                lastfm_session_key = "an-old-session"
                lastfm_url = "\(setup.fm.url.absoluteString)"

                """.write(to: setup.config, atomically: true, encoding: .utf8)
            let mhz = try setup.headless()
            let first = try await mhz.waitFor("playing")
            try await waitUntil("both refusals said") { mhz.stderr.components(separatedBy: "refused the credentials").count == 3 }
            mhz.send("skip")
            try await mhz.waitFor("playing", after: first.index + 1)
            mhz.send("quit")
            #expect(try await mhz.exit() == 0)
            #expect(mhz.stderr == """
                mhz: ListenBrainz refused the credentials (HTTP 401, Invalid authorization token.); scrobbles wait in the outbox: \
                check [scrobble] listenbrainz_token, or run `mhz scrobble login listenbrainz`
                mhz: Last.fm refused the credentials (HTTP 403, error 9: Invalid session key - Please re-authenticate); \
                scrobbles wait in the outbox: check [scrobble] lastfm_api_key and lastfm_api_secret, then run `mhz scrobble login lastfm`

                """ || mhz.stderr == """
                mhz: Last.fm refused the credentials (HTTP 403, error 9: Invalid session key - Please re-authenticate); \
                scrobbles wait in the outbox: check [scrobble] lastfm_api_key and lastfm_api_secret, then run `mhz scrobble login lastfm`
                mhz: ListenBrainz refused the credentials (HTTP 401, Invalid authorization token.); scrobbles wait in the outbox: \
                check [scrobble] listenbrainz_token, or run `mhz scrobble login listenbrainz`

                """, "\(mhz.stderr)")
            // The second song was not announced: each service was asked once.
            #expect(setup.brainz.requests.map(\.status) == [401])
            #expect(setup.fm.calls.map(\.error) == [9])
        }, cleanup: { await setup.stop() })
    }

    @Test func aKeyIsSetInItsTableLeavingEveryOtherLineAsItWas() {
        #expect(ConfigFileEdit.setting("k", to: "v", in: "scrobble", of: "") == "[scrobble]\nk = \"v\"\n")
        #expect(ConfigFileEdit.setting("k", to: "a\"b", in: "scrobble", of: "volume = 5\n")
            == "volume = 5\n\n[scrobble]\nk = \"a\\\"b\"\n")
        let text = "# mine\n[scrobble]\nk = \"old\" # note\nother = 1\n\n[hooks]\nevent = \"x\"\n"
        #expect(ConfigFileEdit.setting("k", to: "new", in: "scrobble", of: text)
            == "# mine\n[scrobble]\nk = \"new\"\nother = 1\n\n[hooks]\nevent = \"x\"\n")
        #expect(ConfigFileEdit.setting("n", to: "1", in: "scrobble", of: text)
            == "# mine\n[scrobble]\nk = \"old\" # note\nother = 1\nn = \"1\"\n\n[hooks]\nevent = \"x\"\n")
    }
}
