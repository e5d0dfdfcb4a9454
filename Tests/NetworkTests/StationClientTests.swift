import Foundation
import Radio
import RadioAPI
import TerminalUI
import TestSupport
import Testing
@testable import StationLink
@testable import mhz

/// The RadioService adapter against a recording server: the exact query of every report
/// type in both families, the session carried and dropped, the red-heart rule.
struct StationClientTests {
    typealias Account = DoubanTestServer.Account

    func report(_ type: ReportType) -> Report {
        Report(type: type, channel: "1", sid: type == .new ? nil : "201",
               history: type.expectsList ? ReportHistory.parse("|201:s|:e") : nil, playedTime: type == .new ? nil : 12.34)
    }

    @Test func anonymousAppListDropsTheAdvertisement() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        let tracks = try await seam.client(.app).send(Report(type: .new, channel: "0", history: []))
        #expect(tracks.map(\.sid) == ["101", "102", "103"])
        var expected = Track(sid: "101", title: "Anonymous One", artist: "Test Artist", album: "Test Album",
                             year: "2013", kbps: 64, length: 30, liked: false, url: seam.server.mediaURL("101"), picture: "")
        // The song's ssid is kept for the lyric call.
        expected.ssid = "e1b2"
        #expect(tracks.first == expected)
        #expect(seam.server.calls(to: "/j/app/radio/people").map(\.rawQuery) ==
            ["app_name=radio_android&version=100&channel=0&type=n&sid=&h=&format=original"])
    }

    @Test(arguments: ReportType.allCases)
    func everyAppReportCarriesTheTokens(type: ReportType) async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        try await seam.logIn(.app)
        let tracks = try await seam.client(.app).send(report(type))
        #expect(tracks.map(\.sid) == (type == .end ? [] : ["201", "202", "203"]))
        let sid = type == .new ? "" : "201"
        let pt = type == .new ? "" : "&pt=12.3"
        let h = type.expectsList ? "&h=%7C201%3As%7C%3Ae" : ""
        #expect(seam.server.calls(to: "/j/app/radio/people").map(\.rawQuery) == [
            "app_name=radio_android&version=100&user_id=\(Account.userID)&expire=\(Account.expire)&token=\(Account.token)&channel=1&type=\(type.rawValue)&sid=\(sid)\(pt)\(h)&format=original",
        ])
    }

    @Test(arguments: ReportType.allCases)
    func everyWebReportCarriesTheCookies(type: ReportType) async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        try await seam.logIn(.web)
        let tracks = try await seam.client(.web).send(report(type))
        #expect(tracks.map(\.sid) == (type == .end ? [] : ["301", "302"]))
        let calls = seam.server.calls(to: "/j/v2/playlist")
        let sid = type == .new ? "" : "&sid=201"
        let pt = type == .new ? "0.0" : "12.3"
        let h = type.expectsList ? "&h=%7C201%3As%7C%3Ae" : ""
        #expect(calls.map(\.rawQuery) == [
            "channel=1&kbps=128&client=s%3Amainsite%7Cy%3A3.0&app_name=radio_website&version=100&type=\(type.rawValue)\(sid)&pt=\(pt)&pb=128&from=mainsite\(h)&format=original",
        ])
        #expect(calls.first?.cookies["dbcl2"] == "\"\(Account.sessionCookie)\"")
        #expect(calls.first?.cookies["ck"] == Account.check)
        #expect(calls.first?.cookies["bid"] == Account.browserID)
        #expect(calls.first?.headers["x-requested-with"] == "XMLHttpRequest")
    }

    @Test func anExpiredTokenFallsBackToAnonymousOnceAndForgetsTheSession() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        try await seam.logIn(.app)
        let client = try seam.client(.app)
        let told = Locked(0)
        client.session.onExpired { told.withLock { $0 += 1 } }
        seam.server.expireSessions()
        let tracks = try await client.send(Report(type: .new, channel: "0", history: []))
        #expect(tracks.map(\.sid) == ["101", "102", "103"], "the same report, answered anonymously")
        _ = try await client.send(Report(type: .skip, channel: "0", sid: "101", history: ReportHistory.parse("|101:s")))
        #expect(told.value == 1)
        #expect(seam.server.calls(to: "/j/app/radio/people").map { $0.parameter("token") } == [Account.token, nil, nil])
        #expect(!seam.exists("session.json"))
        #expect(client.session.login == .anonymous)
    }

    @Test func aDroppedWebSessionFallsBackToAnonymousWithoutItsCookies() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        try await seam.logIn(.web)
        let client = try seam.client(.web)
        let told = Locked(0)
        client.session.onExpired { told.withLock { $0 += 1 } }
        seam.server.expireSessions()
        let tracks = try await client.send(Report(type: .new, channel: "0", history: []))
        #expect(tracks.map(\.sid) == ["401", "402"])
        #expect(told.value == 1)
        let cookies = seam.server.calls(to: "/j/v2/playlist").map { $0.cookies["dbcl2"] }
        #expect(cookies == ["\"\(Account.sessionCookie)\"", nil])
        #expect(!seam.exists("session.json"))
    }

    @Test func aWebSessionWhoseCookieIsGoneIsAnnouncedAsExpiredAtTheFirstRequest() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        try await seam.logIn(.web)
        // The session cookie expired while mhz was not running: only `bid` is left.
        let text = try String(contentsOf: seam.data.path("cookies.txt"), encoding: .utf8)
        try text.split(separator: "\n").filter { !$0.contains("\tdbcl2\t") }.joined(separator: "\n")
            .write(to: seam.data.path("cookies.txt"), atomically: true, encoding: .utf8)
        let client = try seam.client(.web)
        let told = Locked(0)
        client.session.onExpired { told.withLock { $0 += 1 } }
        #expect(client.session.login == .anonymous)
        _ = try await client.channels()
        _ = try await client.send(Report(type: .new, channel: "0", history: []))
        #expect(told.value == 1)
        #expect(!seam.exists("session.json"))
    }

    @Test func theRedHeartChannelWithoutALoginSaysSo() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        for family in [APIFamily.app, .web] {
            await #expect(throws: ServiceFailure.needsLogin(channel: "-3")) {
                try await seam.client(family).send(Report(type: .new, channel: "-3", history: []))
            }
        }
        #expect(ErrorText.describe(.service(.needsLogin(channel: "-3"))) ==
            "The red-heart channel needs a login — run `mhz login`, or pick another channel.")
        #expect(ErrorText.describe(.service(.needsLogin(channel: "-3")), loginKey: "L") ==
            "The red-heart channel needs a login — press L to log in, or pick another channel.")
        #expect(ErrorText.describe(.needsLogin(channel: "-3"), for: .command(server: seam.server.baseURL.absoluteString)) ==
            "the red-heart channel needs a login: run `mhz login`, or pick another channel (`mhz channels` lists them)")
        try await seam.logIn(.app)
        let hearts = try await seam.client(.app).send(Report(type: .new, channel: "-3", history: []))
        #expect(hearts.map(\.sid) == ["201", "202", "203"])
    }

    @Test func channelsOfBothFamilies() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        let expected = [ChannelInfo(id: "0", name: "私人兆赫"), ChannelInfo(id: "1", name: "华语")]
        #expect(try await seam.client(.app).channels() == expected)
        #expect(try await seam.client(.web).channels() == expected)
    }

    @Test func theLogNamesRequestsButNeverSecrets() async throws {
        let seam = try await Seam()
        defer { seam.server.stop() }
        try await seam.logIn(.app)
        _ = try await seam.client(.app).send(Report(type: .skip, channel: "0", sid: "201", history: ReportHistory.parse("|201:s")))
        try await seam.logIn(.web)
        _ = try await seam.client(.web).send(Report(type: .new, channel: "0", history: []))
        let log = seam.log.text
        #expect(log.contains("POST \(seam.server.baseURL.absoluteString)/j/app/login ("), "\(log)")
        #expect(log.contains("&token=<redacted>&channel=0&type=s&sid=201"), "\(log)")
        for secret in [Account.password, Account.token, Account.sessionCookie, Account.check, Account.captchaSolution] {
            #expect(!log.contains(secret), "\(secret) leaked into the log: \(log)")
        }
    }
}
