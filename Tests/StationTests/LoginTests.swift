import Foundation
import RadioAPI
@testable import Station
import Testing
import TestSupport
@testable import StationStorage

/// `POST /j/app/login`, tokens and their expiry, and the captcha after repeated failures.
@Suite("Login")
struct LoginTests {
    private static let client = "app_name=radio_android&version=100"

    private func login(_ base: URL, _ fields: String) async throws -> Fetched {
        try await HTTPFetch.post(base, "/j/app/login", form: Self.client + "&" + fields)
    }

    private func addUser(_ name: String, _ password: String, email: String? = nil, _ station: Station) async throws {
        try await Station.addUser(name: name, password: password, email: email, cost: 4,
                                  dataDirectory: station.configuration.dataDirectory)
    }

    @Test("success: the F2 shape, all strings but r; expire is now plus the token lifetime")
    func success() async throws {
        try await StationFixtures.withDemoStation(tokenLifetime: .seconds(86_400)) { station, base in
            try await addUser("carol", "pa ss&wörd", email: "carol@example.com", station)
            let before = Int(Date().timeIntervalSince1970)
            let answer = try await login(base, "email=carol%40example.com&password=\(FormEncoding.escape("pa ss&wörd"))")
            #expect(answer.status == 200)
            #expect(answer.headers["content-type"] == "application/json; charset=utf-8")
            let json = try answer.jsonObject()
            #expect(Set(json.keys) == ["user_id", "err", "token", "expire", "r", "user_name", "email"])
            for key in ["user_id", "err", "token", "expire", "user_name", "email"] {
                #expect(json[key] is String, "\(key) is a string")
            }
            #expect(json["r"] is NSNumber && (json["r"] as? NSNumber)?.intValue == 0)
            #expect(json["err"] as? String == "ok")
            #expect(json["user_id"] as? String == "1000001")
            #expect(json["user_name"] as? String == "carol")
            #expect(json["email"] as? String == "carol@example.com")
            let token = try #require(json["token"] as? String)
            // Douban's shape: 10 lowercase hex digits, which fit a C client's 16-byte field.
            #expect(token.count == 10 && token.allSatisfy { $0.isHexDigit && !$0.isUppercase })
            let expire = try #require(Int(json["expire"] as? String ?? ""))
            // Bounded by the clock around the request, which a loaded machine can stretch.
            let after = Int(Date().timeIntervalSince1970)
            #expect((before + 86_400...after + 86_401).contains(expire))
            // RadioAPI reads it as mhz's client does.
            let credentials = try APIDecoder.appLogin(answer.body)
            #expect(credentials.userID == "1000001" && credentials.token == token)

            // By user name too, and the token works on the radio.
            let byName = try await login(base, "username=carol&password=\(FormEncoding.escape("pa ss&wörd"))")
            #expect(try byName.jsonObject()["err"] as? String == "ok")
            let radio = try await HTTPFetch.get(
                base, "/j/app/radio/people?\(Self.client)&user_id=1000001&expire=\(expire)&token=\(token)&channel=0&type=n&sid=")
            #expect(Set(try radio.jsonObject().keys) == ["r", "version_max", "song"])
        }
    }

    /// Per-address login limits no test here reaches.
    private static let noAddressLimit = TokenGuard.Limits(slowAfter: 1000, refuseAfter: 1000, delay: .zero,
                                                          lockout: .seconds(60))

    @Test("refusals: wrong password, unknown e-mail or name, wrong client; exact bodies")
    func refusals() async throws {
        // Many failures from one address: the per-address guard (LoginGuardTests) is set
        // out of reach, so the per-name rules are what this test sees.
        try await StationFixtures.withDemoStation(loginGuard: Self.noAddressLimit) { station, base in
            try await addUser("dave", "right", station)
            let cases: [(fields: String, body: String)] = [
                ("username=dave&password=wrong", #"{"err":"wrong_password","r":1}"#),
                ("email=dave&password=wrong", #"{"err":"wrong_password","r":1}"#),
                ("email=nobody%40example.com&password=x", #"{"err":"invalidate_email","r":1}"#),
                ("username=nobody&password=x", #"{"err":"invalid_user_name","r":1}"#),
                ("password=x", #"{"err":"invalidate_email","r":1}"#),
            ]
            for (fields, body) in cases {
                let answer = try await login(base, fields)
                #expect(answer.status == 200, "\(fields)")
                #expect(answer.text == body, "\(fields)")
            }
            for client in ["app_name=radio_android&version=1", "app_name=other&version=100", "version=100", ""] {
                let answer = try await HTTPFetch.post(base, "/j/app/login", form: client + "&username=dave&password=right")
                #expect(answer.text == #"{"err":"wrong_version","r":1}"#, "\(client)")
            }
            // The query string works as well as the body (linq/doubanfm sent the fields that way).
            let inQuery = try await HTTPFetch.post(base, "/j/app/login?\(Self.client)&username=dave&password=right", form: "")
            #expect(try inQuery.jsonObject()["err"] as? String == "ok")
            #expect(throws: APIError.server("wrong_password")) {
                try APIDecoder.appLogin(Data(#"{"err":"wrong_password","r":1}"#.utf8))
            }
        }
    }

    @Test("after 3 failed logins for a name a captcha is required; solved once, it lets the right password in")
    func captchaAfterThreeFailures() async throws {
        try await StationFixtures.withDemoStation(loginGuard: Self.noAddressLimit) { station, base in
            try await addUser("erin", "right", station)
            try await addUser("frank", "right", station)
            for attempt in 1...3 {
                let answer = try await login(base, "username=erin&password=wrong\(attempt)")
                #expect(answer.text == #"{"err":"wrong_password","r":1}"#)
            }
            // Even the right password now needs a captcha; another name does not.
            #expect(try await login(base, "username=erin&password=right").text == #"{"err":"captcha_required","r":1}"#)
            #expect(try await login(base, "username=frank&password=right").jsonObject()["err"] as? String == "ok")

            // /j/new_captcha: a JSON string id and a bid cookie; /misc/captcha draws it.
            let issued = try await HTTPFetch.get(base, "/j/new_captcha")
            #expect(issued.status == 200)
            let id = try JSONDecoder().decode(String.self, from: issued.body)
            #expect(id.hasSuffix(":en") && id.count == 27)
            #expect(issued.headers["set-cookie"]?.hasPrefix("bid=") == true)
            let image = try await HTTPFetch.get(base, "/misc/captcha?id=\(FormEncoding.escape(id))&size=m")
            #expect(image.status == 200)
            #expect(image.headers["content-type"] == "image/png")
            #expect(image.body.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            let answer = try #require(station.captchaStore.answer(for: id))

            // A wrong solution uses the captcha up.
            let wrong = try await login(base, "username=erin&password=right&captcha_id=\(FormEncoding.escape(id))&captcha_solution=XXXXX")
            #expect(wrong.text == #"{"err":"wrong_captcha","r":1}"#)
            let reused = try await login(base, "username=erin&password=right&captcha_id=\(FormEncoding.escape(id))&captcha_solution=\(answer)")
            #expect(reused.text == #"{"err":"wrong_captcha","r":1}"#)
            #expect(try await HTTPFetch.get(base, "/misc/captcha?id=\(FormEncoding.escape(id))&size=m").status == 404)

            // A fresh captcha with a wrong password: still refused, still captcha-bound.
            let second = try JSONDecoder().decode(String.self, from: try await HTTPFetch.get(base, "/j/new_captcha").body)
            let secondAnswer = try #require(station.captchaStore.answer(for: second))
            let badPassword = try await login(base, "username=erin&password=nope&captcha_id=\(FormEncoding.escape(second))&captcha_solution=\(secondAnswer)")
            #expect(badPassword.text == #"{"err":"wrong_password","r":1}"#)

            // Solved (case does not matter) with the right password: in, and the count resets.
            let third = try JSONDecoder().decode(String.self, from: try await HTTPFetch.get(base, "/j/new_captcha").body)
            let thirdAnswer = try #require(station.captchaStore.answer(for: third)).lowercased()
            let solved = try await login(base, "username=erin&password=right&captcha_id=\(FormEncoding.escape(third))&captcha_solution=\(thirdAnswer)")
            #expect(try solved.jsonObject()["err"] as? String == "ok")
            #expect(try await login(base, "username=erin&password=right").jsonObject()["err"] as? String == "ok")
        }
    }

    @Test("tokens expire: after the lifetime every radio call answers {\"r\":1,\"err\":\"expired\"}")
    func expiry() async throws {
        // Within its lifetime a token is let in, and the expiry it was handed is the lifetime on.
        try await StationFixtures.withDemoStation(tokenLifetime: .seconds(3600)) { station, base in
            let before = Date().timeIntervalSince1970
            let credentials = try await StationFixtures.signIn("gina", station: station, base: base)
            let after = Date().timeIntervalSince1970
            let fresh = try await HTTPFetch.get(base, "/j/app/radio/people?\(Self.client)" + credentials + "&channel=0&type=n&sid=")
            #expect(Set(try fresh.jsonObject().keys) == ["r", "version_max", "song"])
            let expire = try #require(credentials.split(separator: "&").first { $0.hasPrefix("expire=") }
                .flatMap { Double($0.dropFirst("expire=".count)) })
            #expect(expire >= (before + 3600).rounded(.down) && expire <= (after + 3600).rounded(.up), "\(expire)")
        }
        // A lifetime of nothing: the token is past it as soon as it is handed out, so the
        // calls after the login are after the lifetime without the test waiting out a clock.
        try await StationFixtures.withDemoStation(tokenLifetime: .zero) { station, base in
            let credentials = try await StationFixtures.signIn("gina", station: station, base: base)
            let query = "/j/app/radio/people?\(Self.client)" + credentials
            for type in ["n", "e", "r", "s", "b"] {
                let sid = type == "n" ? "" : (station.servedLibrary.tracks.first?.sid ?? "")
                let stale = try await HTTPFetch.get(base, query + "&channel=0&type=\(type)&sid=\(sid)")
                #expect(stale.status == 200)
                #expect(stale.text == #"{"err":"expired","r":1}"#, "\(type)")
            }
            #expect(throws: APIError.expired) {
                try APIDecoder.playlist(Data(#"{"err":"expired","r":1}"#.utf8), for: .new)
            }
            // A forged token, or another user's, is refused the same way.
            let forged = credentials.replacingOccurrences(of: "token=", with: "token=0")
            #expect(try await HTTPFetch.get(base, "/j/app/radio/people?\(Self.client)" + forged + "&channel=0&type=n&sid=").text
                    == #"{"err":"expired","r":1}"#)
        }
    }

    @Test("accounts: duplicate names, bad names and bad passwords are refused with typed errors")
    func addUserValidation() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-accounts")
        let id = try await Station.addUser(name: "hana@example.org", password: "pw", cost: 4, dataDirectory: data.url)
        #expect(id == "1000001")
        #expect(try await Station.addUser(name: "ivan", password: "pw", cost: 4, dataDirectory: data.url) == "1000002")
        await #expect(throws: StationError.userExists(name: "IVAN")) {
            try await Station.addUser(name: "IVAN", password: "pw", cost: 4, dataDirectory: data.url)
        }
        await #expect(throws: StationError.userExists(name: "hana@example.org")) {
            try await Station.addUser(name: "hana@example.org", password: "pw", cost: 4, dataDirectory: data.url)
        }
        for name in ["", " padded", String(repeating: "x", count: 65), "tab\there"] {
            await #expect(throws: StationError.invalidUserName(name)) {
                try await Station.addUser(name: name, password: "pw", cost: 4, dataDirectory: data.url)
            }
        }
        for password in ["", String(repeating: "p", count: 73)] {
            await #expect(throws: StationError.invalidPassword) {
                try await Station.addUser(name: "judy", password: password, cost: 4, dataDirectory: data.url)
            }
        }
        // Only a bcrypt hash is stored.
        let database = try StationDatabase(directory: data.url)
        let hashes = try database.access { db in try String.fetchAll(db, sql: "SELECT password_hash FROM user") }
        #expect(hashes.count == 2 && hashes.allSatisfy { $0.hasPrefix("$2b$04$") && $0.count == 60 })
    }

    @Test("request limits: a body over 16 KiB is 413, a target over 8 KiB is 414, both as JSON")
    func limits() async throws {
        try await StationFixtures.withDemoStation { _, base in
            let big = try await HTTPFetch.post(base, "/j/app/login", form: Self.client + "&password=" + String(repeating: "a", count: 20_000))
            #expect(big.status == 413)
            #expect(big.text == #"{"err":"too_large","r":1}"#)
            let long = try await HTTPFetch.get(base, "/j/app/radio/channels?x=" + String(repeating: "b", count: 9000))
            #expect(long.status == 414)
            #expect(long.text == #"{"err":"uri_too_long","r":1}"#)
        }
    }
}
