import Foundation
import Recommender
@testable import Station
import Testing
import TestSupport

/// A report about a song the library does not have is refused `invalid_sid`, whatever its
/// type and on every route that takes one: in-band on both families' playlist routes (their
/// convention for every refusal, HTTP 200), 400 on a live channel's feedback; and nothing of
/// it is learned.
@Suite("Unknown song reports")
struct UnknownSongReportTests {
    static let unknown = "99999999"

    @Test("e p s b r u about a sid not in the library: invalid_sid on /j/app/radio/people (GET and POST), /j/mine/playlist and /j/v2/playlist")
    func playlistRoutes() async throws {
        try await StationFixtures.withDemoStation { station, base in
            let app = "app_name=radio_android&version=100&channel=0"
            for type in ["e", "p", "s", "b", "r", "u"] {
                let query = "type=\(type)&sid=\(Self.unknown)&pt=3.0&h=%7C\(Self.unknown)%3Ap"
                let answers = [
                    ("app GET", try await HTTPFetch.get(base, "/j/app/radio/people?\(app)&\(query)")),
                    ("app POST", try await HTTPFetch.post(base, "/j/app/radio/people?\(app)&\(query)", form: "")),
                    ("classic", try await HTTPFetch.get(base, "/j/mine/playlist?channel=0&\(query)")),
                    ("v2", try await HTTPFetch.get(base, "/j/v2/playlist?channel=0&kbps=128&\(query)")),
                ]
                for (route, answer) in answers {
                    #expect(answer.status == 200, "\(route) \(type)")
                    #expect(answer.text == #"{"err":"invalid_sid","r":1}"#, "\(route) \(type): \(answer.text)")
                }
            }
            // A song the library has is still taken, and `n` needs no sid of the library.
            let sid = try #require(station.servedLibrary.tracks.first?.sid)
            let skip = try await HTTPFetch.get(base, "/j/app/radio/people?\(app)&type=s&sid=\(sid)")
            #expect(try (skip.jsonObject()["song"] as? [Any])?.isEmpty == false)
            let new = try await HTTPFetch.get(base, "/j/app/radio/people?\(app)&type=n&sid=\(Self.unknown)")
            #expect(try (new.jsonObject()["song"] as? [Any])?.isEmpty == false)
            await station.feedbackWritten()
            let profile = try await station.profile(for: "anonymous")
            #expect(!profile.recent.contains(Self.unknown) && !profile.likes(Self.unknown))
        }
    }

    @Test("s r u b about a sid not in the library: 400 invalid_sid on a live channel's feedback, by form body or by query")
    func liveFeedback() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-unknown-song-live")
        defer { data.remove() }
        let station = try await LiveFixtures.station(data: data.url)
        let base = try await station.start()
        try await withCleanup {
            let channel = try await LiveFixtures.channel(base)
            for type in ["s", "r", "u", "b"] {
                let body = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=\(type)&sid=\(Self.unknown)")
                #expect(body.status == 400, "\(type) by body: \(body.text)")
                #expect(body.text == #"{"err":"invalid_sid","r":1}"#, "\(type) by body")
                let query = try await HTTPFetch.post(base, "/live/\(channel)/feedback?type=\(type)&sid=\(Self.unknown)", form: "")
                #expect(query.status == 400 && query.text == #"{"err":"invalid_sid","r":1}"#, "\(type) by query: \(query.text)")
            }
        } cleanup: {
            await station.stop()
        }
    }
}
