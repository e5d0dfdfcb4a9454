import Foundation
@testable import Station
import Testing

/// Failed logins are held off per address as well as per name: whatever names an address
/// tries, both families' failures count together; past the first threshold an app login
/// needs a captcha, past the second the address is refused in each family's error shape.
@Suite("Login guard")
struct LoginGuardTests {
    private static let limits = TokenGuard.Limits(slowAfter: 2, refuseAfter: 4, delay: .zero, lockout: .seconds(60))
    private static let app = "app_name=radio_android&version=100"

    @Test("open, then a captcha after slowAfter failures, then refused after refuseAfter; in-process never counted")
    func verdicts() {
        let guardian = LoginGuard(limits: Self.limits)
        guardian.recordFailure(from: "10.0.0.1")
        #expect(guardian.verdict(for: "10.0.0.1") == .open)
        guardian.recordFailure(from: "10.0.0.1")
        #expect(guardian.verdict(for: "10.0.0.1") == .captchaRequired)
        guardian.recordFailure(from: "10.0.0.1")
        guardian.recordFailure(from: "10.0.0.1")
        #expect(guardian.verdict(for: "10.0.0.1") == .refused)
        #expect(guardian.verdict(for: "10.0.0.2") == .open)
        for _ in 0..<10 { guardian.recordFailure(from: nil) }
        #expect(guardian.verdict(for: nil) == .open)
    }

    @Test("over HTTP: two names tried once each make the address need a captcha; four failures in both families refuse it")
    func overHTTP() async throws {
        try await StationFixtures.withDemoStation(loginGuard: Self.limits) { station, base in
            try await Station.addUser(name: "alice", password: "secret", cost: 4,
                                      dataDirectory: station.configuration.dataDirectory)
            // Two unknown names, one failure each: no name is near its own captcha (3).
            for name in ["nobody1", "nobody2"] {
                let answer = try await HTTPFetch.post(base, "/j/app/login", form: "\(Self.app)&username=\(name)&password=x")
                #expect(answer.text == #"{"err":"invalid_user_name","r":1}"#)
            }
            // The address is past 2: even alice's right password needs a captcha now.
            let held = try await HTTPFetch.post(base, "/j/app/login", form: "\(Self.app)&username=alice&password=secret")
            #expect(held.text == #"{"err":"captcha_required","r":1}"#)
            // A captcha solved right lets the right password in (asking did not count).
            let id = try await Self.newCaptcha(base)
            let solution = try #require(station.captchaStore.answer(for: id))
            let solved = try await HTTPFetch.post(base, "/j/app/login", form: "\(Self.app)&username=alice&password=secret"
                + "&captcha_id=\(id)&captcha_solution=\(solution)")
            #expect(try solved.jsonObject()["err"] as? String == "ok")
            // A wrong captcha is the third failure, a wrong web password the fourth.
            let other = try await Self.newCaptcha(base)
            let wrongCaptcha = try await HTTPFetch.post(base, "/j/app/login", form: "\(Self.app)&username=alice"
                + "&password=secret&captcha_id=\(other)&captcha_solution=WRONG")
            #expect(wrongCaptcha.text == #"{"err":"wrong_captcha","r":1}"#)
            let webID = try await Self.newCaptcha(base)
            let webSolution = try #require(station.captchaStore.answer(for: webID))
            let web = try await HTTPFetch.post(base, "/j/login", form: "source=radio&alias=alice&form_password=nope"
                + "&captcha_id=\(webID)&captcha_solution=\(webSolution)&remember=on")
            #expect(web.text == #"{"err_msg":"帐号和密码不匹配","err_no":1012,"r":1}"#)

            // Refused in both families, the right password and a right captcha included.
            let refusedID = try await Self.newCaptcha(base)
            let refusedSolution = try #require(station.captchaStore.answer(for: refusedID))
            let app = try await HTTPFetch.post(base, "/j/app/login", form: "\(Self.app)&username=alice&password=secret"
                + "&captcha_id=\(refusedID)&captcha_solution=\(refusedSolution)")
            #expect(app.text == #"{"err":"too_many_attempts","r":1}"#)
            let webRefused = try await HTTPFetch.post(base, "/j/login", form: "source=radio&alias=alice&form_password=secret"
                + "&captcha_id=\(refusedID)&captcha_solution=\(refusedSolution)&remember=on")
            #expect(webRefused.text == #"{"err_msg":"登录尝试过多，请稍后再试","err_no":1020,"r":1}"#)
            #expect(webRefused.headers["set-cookie"] == nil)
            // The refusal checked nothing: the captcha it carried is still unused.
            #expect(station.captchaStore.answer(for: refusedID) == refusedSolution)

            // In-process logins have no address: never held off.
            let inProcess = await station.respond(method: "POST", path: "/j/app/login", query: nil,
                                                  body: Data("\(Self.app)&username=alice&password=secret".utf8))
            let inProcessAnswer = try JSONSerialization.jsonObject(with: inProcess.body) as? [String: Any]
            #expect(inProcessAnswer?["err"] as? String == "ok")
        }
    }

    /// A new captcha's id (`/j/new_captcha` answers it as a JSON string).
    private static func newCaptcha(_ base: URL) async throws -> String {
        let answer = try await HTTPFetch.get(base, "/j/new_captcha")
        return try #require(try JSONSerialization.jsonObject(with: answer.body, options: .fragmentsAllowed) as? String)
    }
}
