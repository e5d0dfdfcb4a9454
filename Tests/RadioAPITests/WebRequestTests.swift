import Foundation
import Testing
@testable import RadioAPI

/// The web family's requests and the log redaction, byte for byte.
struct WebRequestTests {
    let web = WebEndpoints(baseURL: URL(string: "https://douban.fm/")!)

    @Test func newListHasNoSidAndTheFixedParametersInOrder() {
        let request = web.playlist(Report(type: .new, channel: "0", history: []))
        #expect(request.method == .get)
        #expect(request.url.absoluteString ==
            "https://douban.fm/j/v2/playlist?channel=0&kbps=128&client=s%3Amainsite%7Cy%3A3.0&app_name=radio_website&version=100&type=n&pt=0.0&pb=128&from=mainsite&h=")
        #expect(request.headers == [.init("Accept", "application/json, text/javascript, */*; q=0.01"),
                                    .init("Referer", "https://douban.fm/"), .init("X-Requested-With", "XMLHttpRequest")])
        #expect(!request.isLogin)
    }

    @Test func theOriginalIsAskedWithFormatAtTheEndAndKbpsStays() {
        var endpoints = web
        endpoints.asksForOriginal = true
        #expect(endpoints.playlist(Report(type: .new, channel: "0", history: [])).url.absoluteString ==
            "https://douban.fm/j/v2/playlist?channel=0&kbps=128&client=s%3Amainsite%7Cy%3A3.0&app_name=radio_website&version=100&type=n&pt=0.0&pb=128&from=mainsite&h=&format=original")
    }

    @Test(arguments: ReportType.allCases)
    func everyReportTypeOfTheWebFamily(type: ReportType) {
        var endpoints = web
        endpoints.kbps = 64
        let history = type.expectsList ? ReportHistory.parse("|7:s") : nil
        let request = endpoints.playlist(Report(type: type, channel: "-3", sid: type == .new ? nil : "7",
                                                history: history, playedTime: type == .new ? nil : 61.25))
        let sid = type == .new ? "" : "&sid=7"
        let pt = type == .new ? "0.0" : "61.2"
        let h = type.expectsList ? "&h=%7C7%3As" : ""
        #expect(request.url.absoluteString ==
            "https://douban.fm/j/v2/playlist?channel=-3&kbps=64&client=s%3Amainsite%7Cy%3A3.0&app_name=radio_website&version=100&type=\(type.rawValue)\(sid)&pt=\(pt)&pb=64&from=mainsite\(h)")
    }

    @Test(arguments: ReportType.allCases)
    func everyReportTypeOfTheAppFamily(type: ReportType) {
        let app = AppEndpoints(baseURL: URL(string: "http://127.0.0.1:7650")!,
                               credentials: AppCredentials(userID: "1000001", token: "c8f2111141", expire: "1900000000"),
                               kbps: 192)
        let history = type.expectsList ? ReportHistory.parse("|7:s|:e") : nil
        let request = app.playlist(Report(type: type, channel: "1", sid: type == .new ? nil : "7", history: history,
                                          playedTime: type == .new ? nil : 3))
        let sid = type == .new ? "" : "7"
        let pt = type == .new ? "" : "&pt=3.0"
        let h = type.expectsList ? "&h=%7C7%3As%7C%3Ae" : ""
        #expect(request.url.absoluteString ==
            "http://127.0.0.1:7650/j/app/radio/people?app_name=radio_android&version=100&user_id=1000001&expire=1900000000&token=c8f2111141&channel=1&type=\(type.rawValue)&sid=\(sid)\(pt)\(h)&kbps=192")
    }

    @Test func loginFormIsExactAndNeverRetried() throws {
        let request = web.login(alias: "listener@example.com", password: "p&ss wörd", captchaID: "8Z9w:en",
                                captchaSolution: "moon")
        #expect(request.method == .post)
        #expect(request.isLogin)
        #expect(request.url.absoluteString == "https://douban.fm/j/login")
        #expect(String(decoding: try #require(request.body), as: UTF8.self) ==
            "source=radio&alias=listener%40example.com&form_password=p%26ss%20w%C3%B6rd&captcha_solution=moon&captcha_id=8Z9w%3Aen&remember=on&task=sync_channel_list")
        #expect(request.headers.contains(.init("Origin", "https://douban.fm")))
        #expect(request.headers.contains(.init("Content-Type", "application/x-www-form-urlencoded")))
    }

    @Test func captchaLogoutAndChannelRequests() {
        #expect(web.newCaptcha().url.absoluteString == "https://douban.fm/j/new_captcha")
        #expect(web.captchaImage(id: "8Z9w:en").url.absoluteString == "https://douban.fm/misc/captcha?size=m&id=8Z9w%3Aen")
        #expect(web.logout(ck: "tEZ9").url.absoluteString == "https://douban.fm/partner/logout?source=radio&ck=tEZ9&no_login=y")
        #expect(web.channels().url.absoluteString == "https://douban.fm/j/app/radio/channels")
    }

    @Test func redactionHidesSecretsAndBodies() throws {
        let app = AppEndpoints(baseURL: URL(string: "http://s")!,
                               credentials: AppCredentials(userID: "42", token: "c8f2111141", expire: "99"))
        let line = LogRedaction.describe(app.playlist(Report(type: .skip, channel: "0", sid: "1")))
        #expect(line == "GET http://s/j/app/radio/people?app_name=radio_android&version=100&user_id=42&expire=99&token=<redacted>&channel=0&type=s&sid=1")
        let login = LogRedaction.describe(app.login(account: "a@b.c", password: "hunter2"))
        #expect(login == "POST http://s/j/app/login (65-byte body, login)")
        #expect(LogRedaction.describe(web.logout(ck: "tEZ9")) ==
            "GET https://douban.fm/partner/logout?source=radio&ck=<redacted>&no_login=y")
        #expect(LogRedaction.url(URL(string: "http://s/x?a=1&form%5Fpassword=x&b")!) == "http://s/x?a=1&form%5Fpassword=<redacted>&b")
        #expect(LogRedaction.url(URL(string: "http://s/x")!) == "http://s/x")
    }
}
