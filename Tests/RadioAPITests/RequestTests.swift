import Foundation
import Testing
@testable import RadioAPI

/// Requests are built exactly: parameter names, order and escaping.
struct RequestTests {
    let api = AppEndpoints(baseURL: URL(string: "http://127.0.0.1:7650/")!)

    @Test func newListRequestHasEmptySidAndEscapedHistory() {
        let request = api.playlist(Report(type: .new, channel: "0", history: ReportHistory.parse("|1:s|2:e")))
        #expect(request.method == .get)
        #expect(request.url.absoluteString ==
            "http://127.0.0.1:7650/j/app/radio/people?app_name=radio_android&version=100&channel=0&type=n&sid=&h=%7C1%3As%7C2%3Ae")
    }

    @Test func skipCarriesSidPlayedTimeAndCredentials() {
        var api = self.api
        api.credentials = AppCredentials(userID: "42", token: "abc", expire: "99")
        let request = api.playlist(Report(type: .skip, channel: "-3", sid: "280187", history: ReportHistory.parse("|280187:s"), playedTime: 12.34))
        #expect(request.url.absoluteString ==
            "http://127.0.0.1:7650/j/app/radio/people?app_name=radio_android&version=100&user_id=42&expire=99&token=abc&channel=-3&type=s&sid=280187&pt=12.3&h=%7C280187%3As")
    }

    @Test func theOriginalIsAskedWithFormatAfterKbpsOnListsAndLikedSongs() {
        var api = self.api
        api.asksForOriginal = true
        #expect(api.playlist(Report(type: .new, channel: "0")).url.absoluteString ==
            "http://127.0.0.1:7650/j/app/radio/people?app_name=radio_android&version=100&channel=0&type=n&sid=&format=original")
        api.kbps = 192
        #expect(api.playlist(Report(type: .end, channel: "0", sid: "7", playedTime: 1)).url.absoluteString ==
            "http://127.0.0.1:7650/j/app/radio/people?app_name=radio_android&version=100&channel=0&type=e&sid=7&pt=1.0&kbps=192&format=original")
        api.asksForOriginal = false
        api.kbps = 64
        #expect(api.playlist(Report(type: .new, channel: "0")).url.absoluteString ==
            "http://127.0.0.1:7650/j/app/radio/people?app_name=radio_android&version=100&channel=0&type=n&sid=&kbps=64")
    }

    @Test func likedSongsPagesCarryCredentialsCountExcludeAndQuality() {
        var api = self.api
        api.credentials = AppCredentials(userID: "42", token: "abc", expire: "99")
        let first = api.likedSongs(count: 100)
        #expect(first.method == .get && !first.isFeedback && !first.isLogin)
        #expect(first.url.absoluteString ==
            "http://127.0.0.1:7650/j/app/radio/liked_songs?app_name=radio_android&version=100&user_id=42&expire=99&token=abc&count=100")
        api.asksForOriginal = true
        #expect(api.likedSongs(count: 2, excluding: ["9", "4"]).url.absoluteString ==
            "http://127.0.0.1:7650/j/app/radio/liked_songs?app_name=radio_android&version=100&user_id=42&expire=99&token=abc&count=2&exclude=9%7C4&format=original")
    }

    @Test func channelsRequest() {
        #expect(api.channels().url.absoluteString == "http://127.0.0.1:7650/j/app/radio/channels")
    }

    @Test func loginUsesEmailOrUsernameAndIsNeverRetried() throws {
        let byEmail = api.login(account: "a@b.c", password: "p&w d")
        #expect(byEmail.method == .post)
        #expect(byEmail.isLogin)
        #expect(String(decoding: try #require(byEmail.body), as: UTF8.self) ==
            "app_name=radio_android&version=100&email=a%40b.c&password=p%26w%20d")
        let byName = api.login(account: "listener", password: "x")
        #expect(String(decoding: try #require(byName.body), as: UTF8.self) ==
            "app_name=radio_android&version=100&username=listener&password=x")
    }

    @Test func historyRingKeepsNewestAndParsesVariants() {
        var history = ReportHistory(capacity: 3)
        for (sid, type) in [("1", ReportType.end), ("2", .skip), ("3", .rate), ("4", .ban)] {
            history.record(sid: sid, type: type)
        }
        #expect(history.encoded == "|2:s|3:r|4:b")
        #expect(ReportHistory.parse("|:e|da60984_84:s|1385975:r") == [
            .init(sid: "", type: .end), .init(sid: "da60984_84", type: .skip), .init(sid: "1385975", type: .rate),
        ])
        #expect(ReportHistory.parse("1:p|2:x|3:s") == [.init(sid: "1", type: .playing), .init(sid: "3", type: .skip)])
    }

    /// Inputs `script/fuzz station` found breaking `h`, kept in `Fixtures/fuzz`: a history
    /// whose first sid starts with a combining mark (U+0301). Read by Characters, its wire
    /// form `|\u{301}…` read back with the `|` inside the sid, which had made one Character
    /// with the mark; the outbox and the station read `h` back, so it must survive.
    @Test func historyWithMarksAtItsSeparatorsReadsBack() throws {
        let found = String(decoding: try Fixture.data("fuzz/history-combining-mark.txt"), as: UTF8.self)
        let entries = ReportHistory.parse(found)
        #expect(entries == [.init(sid: "\u{301}\0\0h=1", type: .skip), .init(sid: "2_jame=radi@o_", type: .ban),
                            .init(sid: "3:", type: .unrate)])
        #expect(ReportHistory.parse(ReportHistory.wireForm(entries)) == entries)
        // A mark that prepends (U+0600) would make one Character with the `:` after it.
        let marked: [ReportHistory.Entry] = [.init(sid: "\u{301}1", type: .end), .init(sid: "2\u{600}", type: .rate),
                                             .init(sid: "\u{200D}", type: .skip)]
        #expect(ReportHistory.parse(ReportHistory.wireForm(marked)) == marked)
    }

    @Test func formDecodingReversesEncoding() {
        let pairs = [("h", "|1:s"), ("q", "a b&c=d"), ("中", "文")]
        let decoded = FormEncoding.decode(FormEncoding.encode(pairs))
        #expect(decoded.map { "\($0.0)=\($0.1)" } == pairs.map { "\($0.0)=\($0.1)" })
    }

    /// What `decode` did before it worked on bytes: Foundation's `+` replacement and
    /// `removingPercentEncoding`, kept here as the oracle.
    private static func foundationDecode(_ text: String) -> [(String, String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { part in
            let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func unescape(_ s: Substring) -> String {
                let spaced = s.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (unescape(kv[0]), kv.count > 1 ? unescape(kv[1]) : "")
        }
    }

    @Test func formDecodingMatchesFoundationOnEveryEdge() {
        let inputs = ["a=1&b=2", "h=|1:s|2:p", "x=%E6%9C%88", "u=%e6%9c%88+x", "bad=%ZZ", "trunc=%4", "end=%",
                      "p=a+b%2Bc", "n=%FF", "=v", "k", "k=", "a=b=c", "s=%20%", "&&a=1&", "m=%41%2", "emoji=%F0%9F%8E%B5",
                      "raw=月光", "plus%2B=+"]
        for input in inputs {
            let ours = FormEncoding.decode(input), theirs = Self.foundationDecode(input)
            #expect(ours.map(\.0) == theirs.map(\.0), "\(input)")
            #expect(ours.map(\.1) == theirs.map(\.1), "\(input)")
        }
    }

    /// The dial goes as hundredths between 0 and 1 whatever it holds: a value from outside
    /// (the station's default, a hand-turned dial) that is not a number, or past either end,
    /// is sent as the nearest end, never trapped on.
    @Test func theVarietyIsSentWithinItsRange() {
        let cases: [(Double, String)] = [(0.5, "0.5"), (0.05, "0.05"), (1, "1"), (0, "0"), (2, "1"), (-1, "0"),
                                         (.infinity, "1"), (-.infinity, "0"), (.nan, "0"), (1e300, "1")]
        for (variety, text) in cases { #expect(AppEndpoints.varietyText(variety) == text, "\(variety)") }
    }

    /// A server URL as URL(string:) takes it (it escapes what a URL may not hold), with a
    /// constant path and an escaped query after it, is always a URL: odd ones read.
    @Test func oddServerURLsStillMakeRequests() throws {
        for text in ["http://h/a%", "http://h/#frag", "http://h/a b", "http://h/\u{FF10}", "x:", "http://h?x", "http://[::1]/"] {
            let base = try #require(URL(string: text))
            let request = AppEndpoints(baseURL: base).playlist(Report(type: .new, channel: "0", history: ReportHistory.parse("|1:s")))
            #expect(request.url.absoluteString.contains("/j/app/radio/people?app_name="), "\(text)")
            _ = WebEndpoints(baseURL: base).channels()
            _ = LyricEndpoint(baseURL: base).lyric(sid: "1", ssid: "a b")
        }
    }
}
