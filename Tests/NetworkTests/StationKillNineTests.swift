import Foundation
import SeededRandom
import TestSupport
import Testing

/// `mhz serve` and `mhz login` killed with SIGKILL at seeded random instants, run after run:
/// the station's database opens at every start and keeps every like it answered, and the
/// client's session file is always a whole one (none, or one that parses), never half.
struct StationKillNineTests {
    /// `user_id`, `expire` and `token` of a fresh app login as dana.
    static func logIn(_ base: URL) async throws -> String {
        let answer = try await ServeCommandTests.post(base, "/j/app/login",
                                                      "app_name=radio_android&version=100&username=dana&password=pw")
        let json = try #require(try JSONSerialization.jsonObject(with: answer) as? [String: Any])
        let token = try #require(json["token"] as? String), expire = try #require(json["expire"] as? String)
        return "app_name=radio_android&version=100&user_id=1000001&expire=\(expire)&token=\(token)"
    }

    /// The sids of dana's liked songs, as `liked_songs` lists them.
    static func likedSongs(_ base: URL, _ credentials: String) async throws -> Set<String> {
        let body = try await ServeCommandTests.get(base, "/j/app/radio/liked_songs?\(credentials)&count=1000")
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any], "\(String(decoding: body, as: UTF8.self))")
        return Set((json["songs"] as? [[String: Any]] ?? []).compactMap { $0["sid"] as? String })
    }

    @Test func everyLikeTheStationAnsweredSurvivesAndTheSessionFileIsNeverHalf() async throws {
        var random = SplitMix64(seed: 9)
        let home = try TemporaryDirectory(prefix: "mhz-serve-kill9")
        let data = home.path("data").path, client = home.path("client").path
        let music = home.path("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        for index in 0..<8 {
            try await offPool {
                try MediaFactory.tone(at: music.appendingPathComponent("tone\(index).mp3"), seconds: 1,
                                      frequency: 300 + 50 * index, tags: ["title": "Tone \(index)"])
            }
        }
        let added = try await BuiltMhz.run(["serve", "--add-user", "dana", "--password-stdin", "--data-dir", data],
                                         home: home.url, stdin: "pw\n")
        #expect(added.status == 0, "\(added.stderr)")
        let sessionFile = home.path("client/session.json")
        var answered: Set<String> = []
        var servers: [String] = []

        for run in 0..<7 {
            let server = try BuiltMhz(["serve", "--data-dir", data, "--port", "0", "--library", music.path], home: home.url)
            defer { server.kill() }
            let base = try await server.servedURL()
            servers.append(base.absoluteString)
            let credentials = try await Self.logIn(base)
            let liked = try await Self.likedSongs(base, credentials)
            #expect(answered.isSubset(of: liked), "run \(run): answered \(answered), listed after the kill \(liked)")

            let list = try await ServeCommandTests.get(base, "/j/app/radio/people?\(credentials)&channel=0&type=n&sid=")
            let songs = (try JSONSerialization.jsonObject(with: list) as? [String: Any])?["song"] as? [[String: Any]] ?? []
            var sids = songs.compactMap { $0["sid"] as? String }.filter { !answered.contains($0) }
            sids.shuffle(using: &random)
            for sid in sids.prefix(Int.random(in: 1...2, using: &random)) {
                let body = try await ServeCommandTests.get(base, "/j/app/radio/people?\(credentials)&channel=0&type=r&sid=\(sid)")
                let answer = try JSONSerialization.jsonObject(with: body) as? [String: Any]
                #expect(answer?["r"] as? Int == 0, "\(String(decoding: body, as: UTF8.self))")
                answered.insert(sid)
            }
            // One more like, and a login, cut off by the kill wherever they are.
            if let sid = sids.dropFirst(2).first {
                Task { _ = try? await ServeCommandTests.get(base, "/j/app/radio/people?\(credentials)&channel=0&type=r&sid=\(sid)") }
            }
            let login = try BuiltMhz(["login", "--server", base.absoluteString, "--username", "dana", "--password-stdin",
                                    "--data-dir", client], home: home.url, stdin: "pw\n")
            defer { login.kill() }
            // A login takes about half a second (the station's password hash): some kills
            // come before it writes, some after. The first login is let finish, so every
            // later kill has an old file it may leave or replace. The kill's moment must be a
            // clock: a seeded random instant, which no event of the login's could stand for
            // (an event would put every kill at the same point of its work).
            let wait = Int.random(in: 0...900, using: &random)
            if run == 0 {
                #expect(try await login.exit() == 0, "\(login.stderr)")
            } else {
                try await Task.sleep(for: .milliseconds(wait))
            }
            login.kill()
            server.kill()
            if let bytes = FileManager.default.contents(atPath: sessionFile.path) {
                let session = try JSONSerialization.jsonObject(with: bytes) as? [String: Any]
                #expect(session?["userName"] as? String == "dana", "run \(run): \(String(decoding: bytes, as: UTF8.self))")
                #expect((session?["server"] as? String).map(servers.contains) == true, "an old login or this one")
            }
        }
        // Each run likes one or two songs of its list not liked yet; a station that has learned
        // the earlier likes offers them again, so fewer new ones come up as the runs go on.
        #expect(answered.count >= 4, "the runs liked songs: \(answered)")
        #expect(FileManager.default.fileExists(atPath: sessionFile.path), "a kill never takes away a whole file")

        let server = try BuiltMhz(["serve", "--data-dir", data, "--port", "0", "--library", music.path], home: home.url)
        defer { server.kill() }
        let base = try await server.servedURL()
        #expect(answered.isSubset(of: try await Self.likedSongs(base, try await Self.logIn(base))))
        server.terminate()
        #expect(try await server.exit() == 0)
    }
}
