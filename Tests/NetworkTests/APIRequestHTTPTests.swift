import Foundation
import HTTP
import RadioAPI
import Testing
@testable import mhz

/// RadioAPI's requests are what the HTTP layer performs, as RadioAPI built them: the same
/// method, URL, headers and body, and sent again at once only when that is safe.
struct APIRequestHTTPTests {
    let app = AppEndpoints(baseURL: URL(string: "http://127.0.0.1:9/")!)
    let web = WebEndpoints(baseURL: URL(string: "http://127.0.0.1:9/")!)

    @Test func aLoginReachesTheHTTPLayerAsBuilt() throws {
        let login = app.login(account: "a@b.c", password: "p w")
        #expect(login.methodName == "POST")
        #expect(login.url.absoluteString == "http://127.0.0.1:9/j/app/login")
        #expect(login.headerFields.map { "\($0.name): \($0.value)" } == ["Content-Type: application/x-www-form-urlencoded"])
        #expect(login.body == Data("app_name=radio_android&version=100&email=a%40b.c&password=p%20w".utf8))
    }

    /// A login can count as two failed attempts, feedback as two likes: neither is sent again
    /// by the HTTP layer. A list request and the channel list are.
    @Test(arguments: ReportType.allCases)
    func onlyWhatIsSafeToRepeatIsRetried(type: ReportType) {
        let report = Report(type: type, channel: "1", sid: type == .new ? nil : "7", history: [], playedTime: 1)
        #expect(app.playlist(report).idempotent == !type.isFeedback)
        #expect(web.playlist(report).idempotent == !type.isFeedback)
        #expect(app.playlist(report).methodName == "GET")
        #expect(app.channels().idempotent)
        #expect(!app.login(account: "a", password: "b").idempotent)
        #expect(!web.login(alias: "a", password: "b", captchaID: "c", captchaSolution: "d").idempotent)
    }
}
