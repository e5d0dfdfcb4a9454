import Foundation
import RadioAPI
@testable import Station
import Testing
import TestSupport

/// The web family served by the station: `POST /j/login` with the captcha and its cookies,
/// `/j/mine/playlist` and `/j/v2/playlist` keyed on `dbcl2`, `/partner/logout` with `ck`;
/// every answer in the shape of the recorded responses (fixtures F4, F5, F5b, F11).
@Suite("Web family")
struct WebFamilyTests {
    /// A logged-in web session: its cookies as a client sends them back.
    struct Session {
        var dbcl2: String
        var ck: String
        var bid: String
        var cookieHeader: String { "bid=\(bid); dbcl2=\(dbcl2); ck=\(ck)" }
    }

    private func newCaptcha(_ station: Station, _ port: Int) async throws -> (id: String, solution: String, bid: String) {
        let answer = try await RawHTTP.exchange(port: port, "GET /j/new_captcha HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(answer.status == 200)
        let id = try JSONDecoder().decode(String.self, from: answer.body)
        let bid = try #require(answer.values("set-cookie").first { $0.hasPrefix("bid=") })
        let value = String(bid.dropFirst(4).prefix { $0 != ";" })
        return (id, try #require(station.captchaStore.answer(for: id)), value)
    }

    private func postLogin(_ port: Int, _ form: String, cookie: String) async throws -> LoopbackExchange {
        try await RawHTTP.exchange(port: port, "POST /j/login HTTP/1.1\r\nHost: x\r\nCookie: \(cookie)\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n"
            + "Connection: close\r\n\r\n\(form)")
    }

    private func logIn(_ name: String, _ station: Station, _ port: Int) async throws -> Session {
        try await Station.addUser(name: name, password: "secret", email: "\(name)@example.com", cost: 4,
                                  dataDirectory: station.configuration.dataDirectory)
        let captcha = try await newCaptcha(station, port)
        let answer = try await postLogin(port, "source=radio&alias=\(name)%40example.com&form_password=secret"
            + "&captcha_solution=\(captcha.solution.lowercased())&captcha_id=\(FormEncoding.escape(captcha.id))&remember=on",
            cookie: "bid=\(captcha.bid)")
        let cookies = answer.values("set-cookie")
        func value(_ name: String) throws -> String {
            let line = try #require(cookies.first { $0.hasPrefix(name + "=") })
            return String(line.dropFirst(name.count + 1).prefix { $0 != ";" })
        }
        return Session(dbcl2: try value("dbcl2"), ck: try value("ck"), bid: captcha.bid)
    }

    private func get(_ port: Int, _ target: String, cookie: String? = nil) async throws -> LoopbackExchange {
        let header = cookie.map { "Cookie: \($0)\r\n" } ?? ""
        return try await RawHTTP.exchange(port: port, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(header)Connection: close\r\n\r\n")
    }

    private func json(_ answer: LoopbackExchange) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
    }

    @Test("login: the captcha is required (F5's refusal), a wrong password is 1012, a success is F4's shape with the three cookies")
    func login() async throws {
        try await StationFixtures.withDemoStation { station, base in
            let port = try #require(base.port)
            try await Station.addUser(name: "erin", password: "secret", email: "erin@example.com", cost: 4,
                                      dataDirectory: station.configuration.dataDirectory)
            let noCaptcha = try await postLogin(port, "source=radio&alias=erin%40example.com&form_password=secret&remember=on",
                                                cookie: "bid=x")
            #expect(noCaptcha.status == 200)
            #expect(String(decoding: noCaptcha.body, as: UTF8.self) == #"{"err_msg":"验证码不正确","err_no":1011,"r":1}"#)
            #expect(noCaptcha.values("set-cookie").isEmpty)

            let first = try await newCaptcha(station, port)
            let wrong = try await postLogin(port, "source=radio&alias=erin&form_password=nope&captcha_solution=\(first.solution)"
                + "&captcha_id=\(FormEncoding.escape(first.id))&remember=on", cookie: "bid=\(first.bid)")
            #expect(String(decoding: wrong.body, as: UTF8.self) == #"{"err_msg":"帐号和密码不匹配","err_no":1012,"r":1}"#)
            // Each captcha gets one try.
            let reused = try await postLogin(port, "source=radio&alias=erin&form_password=secret&captcha_solution=\(first.solution)"
                + "&captcha_id=\(FormEncoding.escape(first.id))", cookie: "bid=\(first.bid)")
            #expect(String(decoding: reused.body, as: UTF8.self) == #"{"err_msg":"验证码不正确","err_no":1011,"r":1}"#)

            let captcha = try await newCaptcha(station, port)
            let answer = try await postLogin(port, "source=radio&alias=erin%40example.com&form_password=secret"
                + "&captcha_solution=\(captcha.solution)&captcha_id=\(FormEncoding.escape(captcha.id))&remember=on"
                + "&task=sync_channel_list", cookie: "bid=\(captcha.bid)")
            #expect(answer.status == 200)
            let object = try json(answer)
            #expect(Set(object.keys) == ["r", "user_info"])
            #expect((object["r"] as? NSNumber)?.intValue == 0)
            let info = try #require(object["user_info"] as? [String: Any])
            #expect(Set(info.keys) == ["ck", "id", "uid", "name", "url", "is_dj", "is_new_user", "is_pro", "play_record",
                                       "third_party_info"])
            #expect(info["id"] as? String == "1000001" && info["uid"] as? String == "1000001")
            #expect(info["name"] as? String == "erin")
            #expect(info["url"] as? String == "/people/1000001/")
            #expect(info["is_dj"] as? Bool == false && info["is_pro"] as? Bool == false)
            #expect((info["is_new_user"] as? NSNumber)?.intValue == 1)
            #expect(info["third_party_info"] is NSNull)
            let record = try #require(info["play_record"] as? [String: NSNumber])
            #expect(record == ["fav_chls_count": 0, "liked": 0, "banned": 0, "played": 0])
            let ck = try #require(info["ck"] as? String)
            #expect(ck.count == 4 && ck.allSatisfy { $0.isLetter || $0.isNumber })

            let cookies = answer.values("set-cookie")
            #expect(cookies.count == 3)
            let dbcl2 = try #require(cookies.first { $0.hasPrefix("dbcl2=") })
            #expect(dbcl2.range(of: #"^dbcl2="1000001:[0-9a-f]{10}"; Path=/; HttpOnly; Max-Age=\d+$"#,
                                options: .regularExpression) != nil, "\(dbcl2)")
            #expect(cookies.contains { $0.hasPrefix("ck=\"\(ck)\"; Path=/; Max-Age=") })
            #expect(cookies.contains { $0.hasPrefix("fmNlogin=\"y\"; Path=/; Max-Age=") })
            // mhz's own client reads it.
            let user = try APIDecoder.webLogin(answer.body)
            #expect(user == WebUser(id: "1000001", uid: "1000001", name: "erin", isPro: false))
        }
    }

    @Test("v2: one song per answer in F11's shape; anonymous carries the warning, a dead session also logout:1")
    func v2Playlist() async throws {
        try await StationFixtures.withDemoStation { station, base in
            let port = try #require(base.port)
            let session = try await logIn("frank", station, port)
            let query = "/j/v2/playlist?channel=0&kbps=128&client=s:mainsite|y:3.0&app_name=radio_website&version=100&type=n"
            let answer = try await get(port, query, cookie: session.cookieHeader)
            #expect(answer.status == 200)
            let object = try json(answer)
            #expect(Set(object.keys) == ["r", "version_max", "is_show_quick_start", "song"])
            #expect((object["r"] as? NSNumber)?.intValue == 0 && (object["version_max"] as? NSNumber)?.intValue == 100)
            #expect((object["is_show_quick_start"] as? NSNumber)?.intValue == 0)
            let songs = try #require(object["song"] as? [[String: Any]])
            #expect(songs.count == 1)
            let song = try #require(songs.first)
            #expect(Set(song.keys) == ["sid", "ssid", "aid", "title", "artist", "album", "albumtitle", "picture", "url",
                                       "length", "like", "public_time", "kbps", "subtype", "file_ext", "status",
                                       "alert_msg", "singers", "release", "is_royal", "available_formats", "reason"])
            for key in ["sid", "ssid", "aid", "title", "artist", "album", "albumtitle", "picture", "url", "public_time",
                        "kbps", "subtype", "file_ext", "alert_msg"] {
                #expect(song[key] is String, "\(key) is a string")
            }
            for key in ["length", "like", "status"] { #expect(song[key] is NSNumber && !(song[key] is String), "\(key)") }
            // The demo library is MP3 at 64 kbit/s: asked for 128, it is served as it is.
            let sid = try #require(song["sid"] as? String)
            #expect(song["url"] as? String == "http://127.0.0.1:\(port)/media/\(sid).mp3")
            #expect(song["kbps"] as? String == "64" && song["file_ext"] as? String == "mp3")
            let aid = try #require(song["aid"] as? String)
            #expect(song["album"] as? String == "/subject/\(aid)/")
            let release = try #require(song["release"] as? [String: String])
            #expect(release == ["id": aid, "ssid": song["ssid"] as? String ?? "", "link": "/subject/\(aid)/"])
            let singers = try #require(song["singers"] as? [[String: Any]])
            #expect(singers.count == 1 && singers.first?["name"] as? String == song["artist"] as? String)
            let formats = try #require(song["available_formats"] as? [String: NSNumber])
            #expect(Set(formats.keys) == ["64", "128", "192"])
            // RadioAPI decodes it as mhz's web client does.
            #expect(try APIDecoder.playlist(answer.body, for: .new).songs.map(\.sid) == [sid])

            let anonymous = try json(try await get(port, query))
            #expect(anonymous["warning"] as? String == "user_is_ananymous" && anonymous["logout"] == nil)
            let forged = "bid=\(session.bid); dbcl2=\"1000001:0123456789\""
            let lapsed = try json(try await get(port, query, cookie: forged))
            #expect(lapsed["warning"] as? String == "user_is_ananymous" && (lapsed["logout"] as? NSNumber)?.intValue == 1)
            #expect((lapsed["song"] as? [Any])?.count == 1)
        }
    }

    @Test("classic: lists in the app's song shape, e answers {\"r\":0} (an object: doubanfm.sh reads it with jq), r answers a list, the anonymous red heart is F5b")
    func classicPlaylist() async throws {
        try await StationFixtures.withDemoStation { station, base in
            let port = try #require(base.port)
            let session = try await logIn("gina", station, port)
            let base = "/j/mine/playlist?type=n&sid=&pt=0.0&channel=0&pb=64&from=mainsite&r=411ef8fc02"
            let list = try json(try await get(port, base, cookie: session.cookieHeader))
            #expect(Set(list.keys) == ["r", "version_max", "is_show_quick_start", "song"])
            let songs = try #require(list["song"] as? [[String: Any]])
            #expect(songs.count == 5)
            #expect(Set(try #require(songs.first).keys) == ["album", "picture", "ssid", "artist", "url", "company", "title",
                                                             "length", "subtype", "public_time", "sid", "aid", "kbps",
                                                             "albumtitle", "like", "rating_avg", "reason"])
            let sid = try #require(songs.first?["sid"] as? String)
            let end = try await get(port, "/j/mine/playlist?type=e&sid=\(sid)&pt=31.2&channel=0&pb=64&from=mainsite",
                                    cookie: session.cookieHeader)
            #expect(end.status == 200 && end.values("content-type") == ["application/json; charset=utf-8"])
            #expect(String(decoding: end.body, as: UTF8.self) == #"{"r":0}"#)
            // mhz's own client reads it as the empty answer of a short report.
            #expect(try APIDecoder.playlist(end.body, for: .end).songs.isEmpty)
            let liked = try json(try await get(port, "/j/mine/playlist?type=r&sid=\(sid)&pt=3.0&channel=0&pb=64&from=mainsite",
                                               cookie: session.cookieHeader))
            #expect((liked["song"] as? [Any])?.count == 5)
            // The heart counts for this account: its red-heart channel holds the song.
            let hearts = try json(try await get(port, "/j/mine/playlist?from=mainsite&channel=-3&kbps=64&h=&sid=&type=n",
                                                cookie: session.cookieHeader))
            #expect((hearts["song"] as? [[String: Any]])?.map { $0["sid"] as? String } == [sid])
            let anonymous = try await get(port, "/j/mine/playlist?from=mainsite&channel=-3&kbps=64&h=&sid=&type=n")
            #expect(String(decoding: anonymous.body, as: UTF8.self)
                    == #"{"is_show_quick_start":1,"r":0,"song":[],"warning":"user_is_ananymous"}"#)
        }
    }

    @Test("a web visitor is a listener of its own by its bid: its trash leaves its own lists, not the anonymous app clients'; a cookie-less trash keeps to its answer")
    func visitorsOwnTrash() async throws {
        try await StationFixtures.withDemoStation { _, base in
            let port = try #require(base.port)
            let trashed = try await ownTrash(port, list: "/j/mine/playlist?from=mainsite&channel=0&kbps=64&h=")
            // A trash without cookie or token leaves the song out of its own answer only.
            let other = try #require(try sids(try await get(port, Self.app + "&type=n")).first { $0 != trashed })
            let alone = try sids(try await get(port, Self.app + "&type=b&sid=\(other)"))
            #expect(alone.count == 5 && !alone.contains(other))
            var after = 0
            for _ in 0..<100 where try sids(try await get(port, Self.app + "&type=n")).contains(other) { after += 1 }
            #expect(after > 0, "an anonymous trash reached \(100 - after) of 100 anonymous lists")
        }
    }

    @Test("an app client without a token that keeps the bid it is handed is a listener of its own: its trash leaves its lists, not the others'")
    func appClientsOwnBid() async throws {
        try await StationFixtures.withDemoStation { _, base in
            let port = try #require(base.port)
            let (_, bid) = try await handedBid(port, Self.app)
            _ = try await ownTrash(port, list: Self.app)
            // Its red heart still asks for a login: a bid is no account.
            let liked = try json(try await get(port, "/j/app/radio/liked_songs?app_name=radio_android&version=100",
                                                cookie: "bid=\(bid)"))
            #expect(liked["err"] as? String == "need_login")
        }
    }

    /// An app-family playlist request without credentials.
    static let app = "/j/app/radio/people?app_name=radio_android&version=100&channel=0&kbps=64"

    /// The sids of a playlist answer.
    private func sids(_ answer: LoopbackExchange) throws -> [String] {
        try #require((try json(answer)["song"] as? [[String: Any]])?.compactMap { $0["sid"] as? String })
    }

    /// Asks `list` without cookies: its answer and the `bid` it hands out, checked.
    private func handedBid(_ port: Int, _ list: String) async throws -> (LoopbackExchange, String) {
        let first = try await get(port, list + "&type=n")
        let cookie = try #require(first.values("set-cookie").first { $0.hasPrefix("bid=\"") })
        let bid = String(cookie.dropFirst("bid=".count).prefix { $0 != ";" })
        #expect(cookie == "bid=\(bid); Path=/; Max-Age=31536000" && bid.count == 13, "\(cookie)")
        return (first, bid)
    }

    /// A client without an account that keeps the `bid` `list` hands it trashes its first
    /// song: none of its next 20 lists has it, and anonymous app clients still hear it
    /// (nine songs, five a list). Returns the song trashed.
    private func ownTrash(_ port: Int, list: String) async throws -> String {
        let (first, bid) = try await handedBid(port, list)
        let trashed = try #require(try sids(first).first)
        let answer = try await get(port, list + "&type=b&sid=\(trashed)", cookie: "bid=\(bid)")
        #expect(answer.values("set-cookie").isEmpty)
        var own = try sids(answer)
        for _ in 0..<20 { own += try sids(try await get(port, list + "&type=n", cookie: "bid=\(bid)")) }
        #expect(own.count == 21 * 5 && !own.contains(trashed))
        var heard = 0
        for _ in 0..<100 where try sids(try await get(port, Self.app + "&type=n")).contains(trashed) { heard += 1 }
        #expect(heard > 0, "one listener's trash reached \(100 - heard) of 100 anonymous lists")
        return trashed
    }

    @Test("a trash ends a like: the song leaves the red heart, liked_songs and the login's play_record.liked")
    func trashEndsLike() async throws {
        try await StationFixtures.withDemoStation { station, base in
            let port = try #require(base.port)
            let session = try await logIn("ivy", station, port)
            let query = "&pt=3.0&channel=0&pb=64&from=mainsite"
            let list = try json(try await get(port, "/j/mine/playlist?type=n&sid=" + query, cookie: session.cookieHeader))
            let sids = try #require((list["song"] as? [[String: Any]])?.compactMap { $0["sid"] as? String })
            let (trashed, kept) = (sids[0], sids[1])
            for sid in [trashed, kept] {
                #expect(try await get(port, "/j/mine/playlist?type=r&sid=\(sid)" + query, cookie: session.cookieHeader).status == 200)
            }
            #expect(try await get(port, "/j/mine/playlist?type=b&sid=\(trashed)" + query, cookie: session.cookieHeader).status == 200)

            let hearts = try json(try await get(port, "/j/mine/playlist?from=mainsite&channel=-3&kbps=64&h=&sid=&type=n",
                                                cookie: session.cookieHeader))
            #expect((hearts["song"] as? [[String: Any]])?.map { $0["sid"] as? String } == [kept])
            // The same account through the app family: its liked songs.
            let login = try await HTTPFetch.post(base, "/j/app/login",
                                                 form: "app_name=radio_android&version=100&email=ivy%40example.com&password=secret")
            let credentials = try login.jsonObject()
            let id = try #require(credentials["user_id"] as? String), token = try #require(credentials["token"] as? String)
            let expire = try #require(credentials["expire"] as? String)
            let liked = try await HTTPFetch.get(base, "/j/app/radio/liked_songs?app_name=radio_android&version=100"
                + "&user_id=\(id)&expire=\(expire)&token=\(token)&count=10")
            #expect(try #require(try liked.jsonObject()["songs"] as? [[String: Any]]).compactMap { $0["sid"] as? String } == [kept])

            // A new login counts what the database holds: one like, one trash, two songs heard of.
            await station.feedbackWritten()
            let captcha = try await newCaptcha(station, port)
            let again = try await postLogin(port, "source=radio&alias=ivy%40example.com&form_password=secret"
                + "&captcha_solution=\(captcha.solution)&captcha_id=\(FormEncoding.escape(captcha.id))", cookie: "bid=\(captcha.bid)")
            let info = try #require(try json(again)["user_info"] as? [String: Any])
            #expect(info["play_record"] as? [String: NSNumber] == ["fav_chls_count": 0, "liked": 1, "banned": 1, "played": 2])
        }
    }

    @Test("logout with the session's ck ends it and clears the cookies; a wrong ck ends nothing")
    func logout() async throws {
        try await StationFixtures.withDemoStation { station, base in
            let port = try #require(base.port)
            let session = try await logIn("hank", station, port)
            let query = "/j/v2/playlist?channel=0&kbps=128&app_name=radio_website&version=100&type=n"
            let wrong = try await get(port, "/partner/logout?source=radio&ck=zzzz&no_login=y", cookie: session.cookieHeader)
            #expect(wrong.status == 200 && wrong.body.isEmpty)
            #expect(try json(try await get(port, query, cookie: session.cookieHeader))["warning"] == nil)

            let right = try await get(port, "/partner/logout?source=radio&ck=\(session.ck)&no_login=y",
                                      cookie: session.cookieHeader)
            #expect(right.status == 200 && right.body.isEmpty)
            #expect(right.values("set-cookie") == ["dbcl2=\"\"; Path=/; HttpOnly; Max-Age=0", "ck=\"\"; Path=/; Max-Age=0",
                                                   "fmNlogin=\"\"; Path=/; Max-Age=0"])
            let after = try json(try await get(port, query, cookie: session.cookieHeader))
            #expect(after["warning"] as? String == "user_is_ananymous" && (after["logout"] as? NSNumber)?.intValue == 1)
        }
    }
}
