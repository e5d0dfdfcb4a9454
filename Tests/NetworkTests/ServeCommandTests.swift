import Foundation
import HTTP
import TestSupport
import Testing

/// `mhz serve` as a user runs it: `--add-user NAME --password-stdin` creates an account in
/// the station's database, and `mhz serve` over the same data directory lets it log in.
struct ServeCommandTests {
    @Test func anAccountAddedFromStdinLogsInToTheServedStation() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-serve")
        let data = home.path("data").path
        let music = home.path("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        try await offPool { try MediaFactory.tone(at: music.appendingPathComponent("one.mp3"), seconds: 1) }

        // A password file edited on Windows: its \r is no part of the password, as for `mhz login`.
        let added = try await BuiltMhz.run(["serve", "--add-user", "dana", "--password-stdin", "--data-dir", data],
                                         home: home.url, stdin: "s3cret pass\r\n")
        #expect(added.status == 0, "stderr: \(added.stderr)")
        #expect(added.stderr == "mhz: added user dana (user_id 1000001)\n")
        #expect(added.stdout == "")

        // The same name again: one line that says what and what to do, exit 1.
        let again = try await BuiltMhz.run(["serve", "--add-user", "dana", "--password-stdin", "--data-dir", data],
                                         home: home.url, stdin: "other\n")
        #expect(again.status == 1)
        #expect(again.stderr == "mhz: a user named dana exists already: choose another name\n")
        // No password at all: refused the same way.
        let empty = try await BuiltMhz.run(["serve", "--add-user", "eve", "--password-stdin", "--data-dir", data],
                                         home: home.url, stdin: "")
        #expect(empty.status == 1)
        #expect(empty.stderr == "mhz: no password on standard input: pipe one line to --password-stdin\n")

        let server = try BuiltMhz(["serve", "--data-dir", data, "--port", "0", "--library", music.path], home: home.url)
        let base = try await server.servedURL()
        #expect(base.host == "127.0.0.1")

        let wrong = try await Self.post(base, "/j/app/login", "app_name=radio_android&version=100&username=dana&password=other")
        #expect(String(decoding: wrong, as: UTF8.self) == #"{"err":"wrong_password","r":1}"#)
        let answer = try await Self.post(base, "/j/app/login",
                                         "app_name=radio_android&version=100&username=dana&password=s3cret%20pass")
        let json = try #require(try JSONSerialization.jsonObject(with: answer) as? [String: Any])
        #expect(Set(json.keys) == ["user_id", "err", "token", "expire", "r", "user_name", "email"])
        #expect(json["r"] as? Int == 0 && json["err"] as? String == "ok")
        #expect(json["user_id"] as? String == "1000001")
        #expect(json["user_name"] as? String == "dana")
        // An account made with a name only answers with that name, never "".
        #expect(json["email"] as? String == "dana")
        let token = try #require(json["token"] as? String)
        #expect(token.count == 10 && token.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        let expire = try #require(json["expire"] as? String)
        #expect(Int(expire).map { $0 > Int(Date().timeIntervalSince1970) } == true)

        // The token is live on the radio: the one song of the folder, for dana.
        let list = try await Self.get(base, "/j/app/radio/people?app_name=radio_android&version=100&user_id=1000001"
            + "&expire=\(expire)&token=\(token)&channel=0&type=n&sid=")
        let playlist = try #require(try JSONSerialization.jsonObject(with: list) as? [String: Any])
        #expect(playlist["logout"] == nil)
        #expect((playlist["song"] as? [[String: Any]])?.count == 1)

        server.terminate()
        #expect(try await server.exit() == 0)
    }

    /// The project's libcurl client, once, without retries (URLSession watches its sockets
    /// with libdispatch sources, which a full run's churn can crash: see PipeReader).
    private static let http = HTTPClient(configuration: HTTPConfiguration(totalTimeout: 60, retry: .never))

    static func post(_ base: URL, _ path: String, _ form: String) async throws -> Data {
        try await http.perform(HTTPRequest(
            method: "POST", url: URL(string: base.absoluteString + path)!,
            headers: [.init("Content-Type", "application/x-www-form-urlencoded")], body: Data(form.utf8))).body
    }

    static func get(_ base: URL, _ path: String) async throws -> Data {
        try await http.perform(HTTPRequest(url: URL(string: base.absoluteString + path)!)).body
    }
}
