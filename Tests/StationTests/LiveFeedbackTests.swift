import Foundation
@testable import Station
import Testing
import TestSupport

/// `POST /live/<channel>/feedback`: likes and trashes teach the channel's shared listener;
/// skips and trashes of the song on the air are votes, and more than half of the listeners
/// polling (with the id the master playlist handed out) end it for everyone. Strangers
/// are refused, and a listener sending too fast is limited.
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

    /// A listener as a player is one: the id the master playlist hands out in its variants'
    /// URIs, then a poll of a variant carrying it.
    static func tuneIn(_ base: URL, _ channel: String) async throws -> String {
        let master = try await HTTPFetch.get(base, "/live/\(channel).m3u8")
        let prefix = "\(channel)/128.m3u8?listener="
        let uri = try #require(master.text.split(separator: "\n").first { $0.hasPrefix(prefix) }, "\(master.text)")
        let id = String(uri.dropFirst(prefix.count))
        try await poll(base, channel, id)
        return id
    }

    /// A poll of the live window by the listener `id`.
    static func poll(_ base: URL, _ channel: String, _ id: String) async throws {
        let window = try await HTTPFetch.get(base, "/live/\(channel)/128.m3u8?listener=\(id)")
        #expect(window.status == 200 && window.text.hasPrefix("#EXTM3U"))
    }

    /// Runs `body` with a station over the three-song library on two-second segments, and
    /// the live channel's id.
    private func withStation(_ body: (Station, URL, String) async throws -> Void) async throws {
        let data = try TemporaryDirectory(prefix: "mhz-live-feedback")
        defer { data.remove() }
        var configuration = StationConfiguration(library: try await Self.libraryTask.value, fallsBackToDemo: false,
                                                 dataDirectory: data.url, seed: 5, rescanInterval: nil)
        configuration.analysesSound = false
        // Two-second segments: the late skip below has two segments to come in.
        configuration.live.segmentDuration = .seconds(2)
        let station = try await Station(configuration: configuration)
        let base = try await station.start()
        try await withCleanup {
            let channels = try await HTTPFetch.get(base, "/j/app/radio/channels").jsonObject()["channels"] as? [[String: Any]] ?? []
            let channel = String(try #require(channels.first { $0["name"] as? String == "Skiptest" }?["channel_id"] as? Int))
            try await body(station, base, channel)
        } cleanup: {
            await station.stop()
        }
    }

    @Test("four POSTs with invented logins or ids are refused and end nothing; a listener flooding is limited; an account's vote counts")
    func strangers() async throws {
        try await withStation { station, base, channel in
            let listeners = [try await Self.tuneIn(base, channel), try await Self.tuneIn(base, channel),
                             try await Self.tuneIn(base, channel)]
            let aired = try await HTTPFetch.get(base, "/live/\(channel)/aired.json").jsonObject()["songs"] as? [[String: Any]] ?? []
            let sid = try #require(aired.first?["sid"] as? String)
            // Four strangers' skips, by the name they give or an id never handed out: refused.
            for stranger in ["login=x1", "login=x2", "login=x3", "listener=\(String(repeating: "0a", count: 16))"] {
                let refused = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=s&sid=\(sid)&\(stranger)")
                #expect(refused.status == 403 && refused.text == #"{"err":"unknown_listener","r":1}"#, "\(refused.text)")
            }
            // The first real vote is one of the three listening: the strangers counted for nothing.
            for id in listeners { try await Self.poll(base, channel, id) }
            let first = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=s&sid=\(sid)&listener=\(listeners[0])")
            let one = try first.jsonObject()
            #expect(first.status == 200 && one["votes"] as? Int == 1 && one["listeners"] as? Int == 3
                        && one["ending"] as? Bool == false, "\(first.text)")
            // An account's vote counts without an id: it listens from its word on.
            let account = try await StationFixtures.signIn("lu", station: station, base: base)
            for id in listeners { try await Self.poll(base, channel, id) }
            let byAccount = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=s&sid=\(sid)\(account)")
            let two = try byAccount.jsonObject()
            #expect(byAccount.status == 200 && two["votes"] as? Int == 2 && two["listeners"] as? Int == 4
                        && two["ending"] as? Bool == false, "\(byAccount.text)")
            // A wrong token is no account.
            let wrong = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=s&sid=\(sid)&user_id=1&token=nope")
            #expect(wrong.status == 403)
            // A flood from one listener: a burst of eight words, then one every 4 s; twenty in a
            // row (in less than the 48 s that would take) meet 429s.
            var answers: [Fetched] = []
            let floodStart = ContinuousClock.now
            for _ in 0..<20 {
                answers.append(try await HTTPFetch.post(base, "/live/\(channel)/feedback",
                                                        form: "type=s&sid=\(sid)&listener=\(listeners[1])"))
            }
            let statuses = answers.map(\.status)
            let took = (ContinuousClock.now - floodStart) / .seconds(4)
            #expect(statuses.prefix(8) == ArraySlice(repeating: 200, count: 8) && Set(statuses) == [200, 429], "\(statuses)")
            #expect(Double(statuses.count { $0 == 200 }) <= 8 + took.rounded(.up), "\(statuses) in \(took * 4) s")
            let limited = try #require(answers.first { $0.status == 429 })
            #expect(try limited.jsonObject()["err"] as? String == "rate_limited", "\(limited.text)")
            #expect(try (limited.jsonObject()["retry_after"] as? Int).map { $0 >= 1 && $0 <= 4 } == true, "\(limited.text)")
            // A poll naming its id takes the live edge's short path; any other query the router's.
            let route = LiveEdgeRoute(hub: station.liveHub, metrics: StationMetrics())
            #expect(route.answer(target: "/live/\(channel)/128.m3u8?listener=\(listeners[0])", listener: "127.0.0.1")?.kind
                        == .playlist)
            #expect(route.answer(target: "/live/\(channel)/128.m3u8?login=x", listener: "127.0.0.1") == nil)
            #expect(route.answer(target: "/live/\(channel)/128.m3u8?listener=\(listeners[0])&begintime=1",
                                 listener: "127.0.0.1") == nil)
            // The master carries a known id on, and hands out a new one for an unknown one.
            let known = try await HTTPFetch.get(base, "/live/\(channel).m3u8?listener=\(listeners[2])")
            #expect(known.text.contains("\(channel)/64.m3u8?listener=\(listeners[2])\n"))
            let unknown = try await HTTPFetch.get(base, "/live/\(channel).m3u8?listener=\(String(repeating: "0a", count: 16))")
            #expect(!unknown.text.contains("0a0a0a0a") && unknown.text.contains("\(channel)/64.m3u8?listener="))
        }
    }

    @Test("two of three listeners skipping end the song on the air within two segments (a vote by form body or by query); the tally says so; a like teaches the channel")
    func majoritySkip() async throws {
        try await withStation { station, base, channel in
            let ana = try await Self.tuneIn(base, channel), bo = try await Self.tuneIn(base, channel)
            let cy = try await Self.tuneIn(base, channel)
            let aired = try await HTTPFetch.get(base, "/live/\(channel)/aired.json").jsonObject()["songs"] as? [[String: Any]] ?? []
            let onAir = try #require(aired.first)
            let sid = try #require(onAir["sid"] as? String)
            let start = try #require((onAir["start"] as? NSNumber)?.int64Value)

            // Refusals first: nothing is counted.
            let bad = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=x&sid=\(sid)&listener=\(ana)")
            #expect(try bad.status == 400 && bad.jsonObject()["err"] as? String == "invalid_type")
            let noSid = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=s&listener=\(ana)")
            #expect(try noSid.status == 400 && noSid.jsonObject()["err"] as? String == "missing_sid")
            let unknown = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=r&sid=999999&listener=\(ana)")
            #expect(try unknown.status == 400 && unknown.jsonObject()["err"] as? String == "invalid_sid")
            #expect(try await HTTPFetch.post(base, "/live/0/feedback", form: "type=s&sid=\(sid)").status == 404)

            // A like teaches the channel's listener.
            let like = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=r&sid=\(sid)&listener=\(cy)")
            #expect(try like.jsonObject()["votes"] as? Int == 0)
            #expect(try await station.profile(for: "live:\(channel)").likes(sid))
            // The three polled a moment ago: all three listen.
            for id in [ana, bo, cy] { try await Self.poll(base, channel, id) }

            let first = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=s&sid=\(sid)&listener=\(ana)")
            let one = try first.jsonObject()
            #expect(one["votes"] as? Int == 1 && one["listeners"] as? Int == 3 && one["ending"] as? Bool == false, "\(one)")
            #expect(one["on_air"] as? Bool == true)
            // The same listener again is still one vote.
            let again = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=s&sid=\(sid)&listener=\(ana)")
            #expect(try again.jsonObject()["votes"] as? Int == 1)
            // The form may come as the query, the body empty (as the web player sends it).
            let second = try await HTTPFetch.post(base, "/live/\(channel)/feedback?type=s&sid=\(sid)&listener=\(bo)", form: "")
            let two = try second.jsonObject()
            #expect(two["votes"] as? Int == 2 && two["listeners"] as? Int == 3 && two["ending"] as? Bool == true, "\(two)")

            // The next song starts within a few seconds, not after the minute this one lasts.
            // It is watched in the process, not through aired.json: the skip below must come
            // within two segments of the change, which a busy machine's HTTP round trips can
            // outlast.
            let broadcast = try #require(station.liveHub.broadcast(channel))
            let next = try await waitForValue("the song to be ended", within: .seconds(60)) {
                broadcast.snapshot.aired.last { $0.start > start }
            }
            let nextStart = next.start
            let votedAt = Int64(Date().timeIntervalSince1970 * 1000)
            // A skip of the song that has just left the air, which a listener at the live edge
            // (three segments behind) still hears, is no vote: it says the song is over.
            // (Two segments after the next song appeared, it no longer is: on a machine too
            // busy to ask in time, the answer is held to what the broadcast says around it.)
            let heardBefore = broadcast.justLeft(sid)
            let late = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=s&sid=\(sid)&listener=\(cy)")
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
            let older = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=b&sid=\(sid)&listener=\(cy)")
            #expect(older.text == #"{"ended":false,"ending":false,"listeners":0,"on_air":false,"r":0,"sid":"\#(sid)","#
                        + #""type":"b","votes":0}"#, "\(older.text)")
        }
    }
}
