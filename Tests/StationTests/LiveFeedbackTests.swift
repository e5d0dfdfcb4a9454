import Foundation
@testable import Station
import Testing
import TestSupport

/// `POST /live/<channel>/feedback`: likes and trashes teach the channel's shared listener;
/// skips and trashes of the song on the air are votes, and more than half of the listeners
/// who fetched a playlist in the last 30 s end it for everyone.
@Suite("Live feedback")
struct LiveFeedbackTests {
    /// Three songs of a minute each (a channel needs three), so a song ended by a vote ends long before its time.
    static let libraryTask = Task {
        try await offPool { () throws -> URL in
            let root = StationFixtures.sharedDataDirectory.appendingPathComponent("live-skip-library", isDirectory: true)
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            for (name, frequency) in [("Long One", 330), ("Long Two", 440), ("Long Three", 550)] {
                try MediaFactory.tone(at: root.appendingPathComponent("\(name).flac"), seconds: 60, frequency: frequency,
                                      tags: ["title": name, "artist": "Band", "genre": "Skiptest"])
            }
            return root
        }
    }

    @Test("two of three listeners skipping end the song on the air within two segments (a vote by form body or by query); the tally says so; a like teaches the channel")
    func majoritySkip() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-live-feedback")
        defer { data.remove() }
        var configuration = StationConfiguration(library: try await Self.libraryTask.value, fallsBackToDemo: false,
                                                 dataDirectory: data.url, seed: 5, rescanInterval: nil)
        configuration.analysesSound = false
        // Two-second segments: the late skip below has two segments to come in.
        configuration.live.segmentDuration = .seconds(2)
        let station = try await Station(configuration: configuration)
        let base = try await station.start()
        do {
            let channels = try await HTTPFetch.get(base, "/j/app/radio/channels").jsonObject()["channels"] as? [[String: Any]] ?? []
            let channel = String(try #require(channels.first { $0["name"] as? String == "Skiptest" }?["channel_id"] as? Int))
            for login in ["ana", "bo", "cy"] {
                #expect(try await HTTPFetch.get(base, "/live/\(channel)/128.m3u8?login=\(login)").status == 200)
            }
            let aired = try await HTTPFetch.get(base, "/live/\(channel)/aired.json").jsonObject()["songs"] as? [[String: Any]] ?? []
            let onAir = try #require(aired.first)
            let sid = try #require(onAir["sid"] as? String)
            let start = try #require((onAir["start"] as? NSNumber)?.int64Value)

            // Refusals first: nothing is counted.
            let bad = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=x&sid=\(sid)&login=ana")
            #expect(try bad.status == 400 && bad.jsonObject()["err"] as? String == "invalid_type")
            let noSid = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=s&login=ana")
            #expect(try noSid.status == 400 && noSid.jsonObject()["err"] as? String == "missing_sid")
            let unknown = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=r&sid=999999&login=ana")
            #expect(try unknown.status == 400 && unknown.jsonObject()["err"] as? String == "invalid_sid")
            #expect(try await HTTPFetch.post(base, "/live/0/feedback", form: "type=s&sid=\(sid)").status == 404)

            // A like teaches the channel's listener.
            let like = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=r&sid=\(sid)&login=cy")
            #expect(try like.jsonObject()["votes"] as? Int == 0)
            #expect(try await station.profile(for: "live:\(channel)").likes(sid))

            let first = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=s&sid=\(sid)&login=ana")
            let one = try first.jsonObject()
            #expect(one["votes"] as? Int == 1 && one["listeners"] as? Int == 3 && one["ending"] as? Bool == false, "\(one)")
            #expect(one["on_air"] as? Bool == true)
            // The same listener again is still one vote.
            let again = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=s&sid=\(sid)&login=ana")
            #expect(try again.jsonObject()["votes"] as? Int == 1)
            // The form may come as the query, the body empty (as the web player sends it).
            let second = try await HTTPFetch.post(base, "/live/\(channel)/feedback?type=s&sid=\(sid)&login=bo", form: "")
            let two = try second.jsonObject()
            #expect(two["votes"] as? Int == 2 && two["listeners"] as? Int == 3 && two["ending"] as? Bool == true, "\(two)")

            // The next song starts within a few seconds, not after the minute this one lasts.
            // It is watched in the process, not through aired.json: the skip below must come
            // within two segments of the change, which a busy machine's HTTP round trips can
            // outlast.
            let broadcast = try #require(station.liveHub.broadcast(channel))
            var next: AiredSong?
            let deadline = ContinuousClock.now + .seconds(30)
            while next == nil {
                next = broadcast.snapshot.aired.last { $0.start > start }
                guard ContinuousClock.now < deadline else { throw TestSupportError.timeout("the song was not ended") }
                if next == nil { try await Task.sleep(for: .milliseconds(20)) }
            }
            let nextStart = try #require(next?.start)
            let votedAt = Int64(Date().timeIntervalSince1970 * 1000)
            // A skip of the song that has just left the air, which a listener at the live edge
            // (three segments behind) still hears, is no vote: it says the song is over.
            // (Two segments after the next song appeared, it no longer is: on a machine too
            // busy to ask in time, the answer is held to what the broadcast says around it.)
            let heardBefore = broadcast.justLeft(sid)
            let late = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=s&sid=\(sid)&login=cy")
            let heardAfter = broadcast.justLeft(sid)
            #expect(nextStart - start < 60_000 - 10_000, "ended at \(nextStart - start) ms")
            #expect(nextStart <= votedAt + 3_000)
            let songs = try await HTTPFetch.get(base, "/live/\(channel)/aired.json").jsonObject()["songs"] as? [[String: Any]] ?? []
            #expect(songs.contains { ($0["start"] as? NSNumber)?.int64Value == nextStart }, "aired.json lists the next song")
            if heardBefore == heardAfter {
                #expect(late.text == #"{"ended":\#(heardBefore),"ending":false,"listeners":0,"on_air":false,"r":0,"#
                            + #""sid":"\#(sid)","type":"s","votes":0}"#, "\(late.text)")
            }
            #expect(heardBefore, "asked within two segments of the song's end")
            // Once the edge's listener is past its end too, it is only a song of the look-back.
            try await waitUntil("the joining segment after the song's end", within: .seconds(20)) {
                let segments = broadcast.snapshot.segments
                return segments.count >= 3 && segments[segments.count - 3].start >= nextStart
            }
            let older = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=b&sid=\(sid)&login=cy")
            #expect(older.text == #"{"ended":false,"ending":false,"listeners":0,"on_air":false,"r":0,"sid":"\#(sid)","#
                        + #""type":"b","votes":0}"#, "\(older.text)")
        } catch {
            await station.stop()
            throw error
        }
        await station.stop()
    }
}
