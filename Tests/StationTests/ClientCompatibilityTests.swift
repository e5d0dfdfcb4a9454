import Foundation
import RadioAPI
@testable import Station
import Testing
import TestSupport

/// Request shapes real Douban FM clients send, replayed byte for byte, and whether each
/// answer would satisfy such a client: `r` 0, a non-empty song list where the client
/// expects one, a token that fits a C client's 16-byte field (15 characters and the NUL),
/// and playlist answers under 8 KB (hzqtc/fmd reads an answer into a buffer of that size).
@Suite("Client compatibility")
struct ClientCompatibilityTests {
    /// The C client's buffer for one answer.
    static let answerBuffer = 8192

    private func raw(_ port: Int, _ target: String, method: String = "GET", body: String? = nil) async throws -> LoopbackExchange {
        // No User-Agent, no Accept: bare libcurl as hzqtc/fmd uses it.
        var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        if let body {
            request += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n"
        }
        request += "Connection: close\r\n\r\n" + (body ?? "")
        return try await RawHTTP.exchange(port: port, request)
    }

    private func object(_ answer: LoopbackExchange) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
    }

    @Test("a C client (radio_desktop_win): a name in email logs in, the token fits, every report answers in under 8 KB")
    func desktopClient() async throws {
        try await StationFixtures.withDemoStation { station, base in
            let port = try #require(base.port)
            try await Station.addUser(name: "ivy", password: "secret", cost: 4, dataDirectory: station.configuration.dataDirectory)
            // taizilongxu/douban.fm users typed a name where the form says email.
            let login = try object(try await raw(port, "/j/app/login", method: "POST",
                                                 body: "app_name=radio_desktop_win&version=100&email=ivy&password=secret"))
            #expect((login["r"] as? NSNumber)?.intValue == 0 && login["err"] as? String == "ok")
            let token = try #require(login["token"] as? String)
            #expect(token.utf8.count <= 15)
            #expect(login["email"] as? String == "ivy")
            let userID = try #require(login["user_id"] as? String), expire = try #require(login["expire"] as? String)
            let prefix = "/j/app/radio/people?app_name=radio_desktop_win&version=100&user_id=\(userID)&expire=\(expire)"
                + "&token=\(token)&channel=0"

            // n with sid=0 (hzqtc/fmd) and sid=null (a JavaScript client's unset variable).
            var last = ""
            for sid in ["0", "null"] {
                let answer = try await raw(port, prefix + "&sid=\(sid)&type=n&h=&kbps=64")
                #expect(answer.status == 200 && answer.body.count < Self.answerBuffer, "n sid=\(sid)")
                let songs = try #require(try object(answer)["song"] as? [[String: Any]])
                #expect(songs.count == 5, "n sid=\(sid)")
                last = try #require(songs.first?["sid"] as? String)
            }
            // Long and short reports with h as hzqtc/fmd writes it: raw `|` and `:`, newest first.
            for type in ["p", "s", "b", "r", "u"] {
                let answer = try await raw(port, prefix + "&sid=\(last)&type=\(type)&h=|\(last):\(type)|\(last):p&kbps=64")
                #expect(answer.status == 200 && answer.body.count < Self.answerBuffer, "\(type)")
                let json = try object(answer)
                #expect((json["r"] as? NSNumber)?.intValue == 0, "\(type)")
                let songs = try #require(json["song"] as? [[String: Any]], "\(type)")
                #expect(!songs.isEmpty, "\(type)")
                last = try #require(songs.first?["sid"] as? String)
            }
            let end = try await raw(port, prefix + "&sid=\(last)&type=e&kbps=64")
            #expect(String(decoding: end.body, as: UTF8.self) == #"{"r":0}"#)
            // Liked songs, as exporters ask for them.
            let hearts = try object(try await raw(port, "/j/app/radio/liked_songs?app_name=radio_desktop_win&version=100"
                + "&user_id=\(userID)&expire=\(expire)&token=\(token)&count=999&exclude="))
            #expect((hearts["r"] as? NSNumber)?.intValue == 0 && hearts["songs"] is [Any])
        }
    }

    @Test("an Android-app client (radio_android), anonymous and with a username login, over GET and POST")
    func androidClient() async throws {
        try await StationFixtures.withDemoStation { station, base in
            let port = try #require(base.port)
            let anonymous = try await raw(port, "/j/app/radio/people?app_name=radio_android&version=100&channel=0&sid=&type=n")
            let json = try object(anonymous)
            #expect((json["r"] as? NSNumber)?.intValue == 0 && (json["logout"] as? NSNumber)?.intValue == 1)
            #expect((json["song"] as? [Any])?.count == 5 && anonymous.body.count < Self.answerBuffer)
            // The Windows app's first request was a POST.
            let posted = try await raw(port, "/j/app/radio/people?app_name=radio_android&version=100&channel=0&sid=&type=n",
                                       method: "POST", body: "")
            #expect((try object(posted)["song"] as? [Any])?.count == 5)
            try await Station.addUser(name: "jo", password: "secret", cost: 4, dataDirectory: station.configuration.dataDirectory)
            let login = try object(try await raw(port, "/j/app/login", method: "POST",
                                                 body: "app_name=radio_android&version=100&username=jo&password=secret"))
            #expect((login["r"] as? NSNumber)?.intValue == 0 && (login["token"] as? String)?.utf8.count == 10)
        }
    }

    @Test("a malformed request line gets Douban's JSON error shape with 400, not an empty body")
    func malformedRequest() async throws {
        try await StationFixtures.withDemoStation { _, base in
            let port = try #require(base.port)
            for request in ["GARBAGE\r\n\r\n", "GET /j/app/radio/channels HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n"] {
                let answer = try await RawHTTP.exchange(port: port, request)
                #expect(answer.status == 400)
                #expect(answer.values("content-type") == ["application/json; charset=utf-8"])
                #expect(String(decoding: answer.body, as: UTF8.self) == #"{"err":"bad_request","r":1}"#)
            }
        }
    }
}
