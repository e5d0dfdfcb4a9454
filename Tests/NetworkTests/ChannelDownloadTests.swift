import Foundation
import TestSupport
import Testing

/// `mhz download --channel ID --count N`, the built client against the fake station: `n`,
/// then `p` after the last song, until N distinct songs came or three answers in a row
/// brought none new; every song of them downloaded once.
struct ChannelDownloadTests {
    /// The playlist requests the station received, as `type sid`.
    static func lists(_ server: DoubanTestServer) -> [String] {
        server.calls(to: "/j/app/radio/people").map { call in
            #expect(call.parameter("channel") == "1", "\(call)")
            return "\(call.parameter("type") ?? "?") \(call.parameter("sid") ?? "?")"
        }
    }

    @Test func aCountTheFirstListHoldsTakesOneRequest() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        server.setMediaSeconds(1)
        let home = try TemporaryDirectory(prefix: "mhz-channel-download")
        let run = try await BuiltMhz.run(["download", "--server", server.baseURL.absoluteString, "--channel", "1",
                                          "--count", "2", "--json", "--data-dir", home.path("data").path], home: home.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.lists(server) == ["n "])
        #expect(server.calls.filter { $0.path.hasPrefix("/media/") }.map(\.path).sorted() == ["/media/101.wav", "/media/102.wav"])
        #expect(StationQualityTests.completed(run.stdout).sorted()
            == ["Anonymous One", "Anonymous Two"].map { home.path("data/downloads/Test Artist - \($0).wav").path })
    }

    @Test func aStationWithFewerSongsIsAskedUntilThreeAnswersBringNoneNew() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        server.setMediaSeconds(1)
        let home = try TemporaryDirectory(prefix: "mhz-channel-download")
        let run = try await BuiltMhz.run(["download", "--server", server.baseURL.absoluteString, "--channel", "1",
                                          "--count", "10", "--json", "--data-dir", home.path("data").path], home: home.url)
        #expect(run.status == 0, "\(run.stderr)")
        // The same three songs every time (and an advertisement, never downloaded).
        #expect(Self.lists(server) == ["n ", "p 103", "p 103", "p 103"])
        #expect(server.calls.filter { $0.path.hasPrefix("/media/") }.map(\.path).sorted()
            == ["/media/101.wav", "/media/102.wav", "/media/103.wav"])
        #expect(StationQualityTests.completed(run.stdout).count == 3)
    }
}
