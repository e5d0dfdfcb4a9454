import Foundation
import RadioAPI
import Station
import Testing

/// `GET /j/app/radio/channels`, checked on the raw JSON so types are exact.
@Suite("Channels endpoint")
struct ChannelsEndpointTests {
    @Test("lists 私人兆赫, one channel per genre, one per decade with 3+ songs; numbers as numbers; no -3; the broadcast ones live")
    func channels() async throws {
        try await StationFixtures.withDemoStation { station, base in
            let answer = try await HTTPFetch.get(base, "/j/app/radio/channels")
            #expect(answer.status == 200)
            #expect(answer.headers["content-type"] == "application/json; charset=utf-8")
            let json = try answer.jsonObject()
            #expect(Array(json.keys) == ["channels"])
            let channels = try #require(json["channels"] as? [[String: Any]])
            // Seven demo songs are from the 2010s, two from the 2020s: one decade channel.
            #expect(channels.count == 5)
            let expected: [(id: Int, name: String, english: String, abbreviation: String)] = [
                (0, "私人兆赫", "Personal Radio", "My"),
                (1, "Ambient", "Ambient", "AM"),
                (2, "Chiptune", "Chiptune", "CH"),
                (3, "Folk", "Folk", "FO"),
                (4, "2010s", "2010s", "10s"),
            ]
            for (channel, want) in zip(channels, expected) {
                // Every public channel is broadcast (PROTOCOL §11): `live` on all but 0.
                let douban: Set<String> = ["channel_id", "name", "name_en", "abbr_en", "seq_id"]
                #expect(Set(channel.keys) == (want.id == 0 ? douban : douban.union(["live"])))
                #expect(want.id == 0 || channel["live"] as? Bool == true)
                #expect(channel["channel_id"] is NSNumber && !(channel["channel_id"] is String))
                #expect((channel["channel_id"] as? NSNumber)?.intValue == want.id)
                #expect((channel["seq_id"] as? NSNumber)?.intValue == want.id)
                #expect(channel["name"] as? String == want.name)
                #expect(channel["name_en"] as? String == want.english)
                #expect(channel["abbr_en"] as? String == want.abbreviation)
            }
            // The exact bytes of the first entry (keys sorted: the station's output is byte-stable).
            #expect(answer.text.hasPrefix(#"{"channels":[{"abbr_en":"My","channel_id":0,"name":"私人兆赫","name_en":"Personal Radio","seq_id":0},"#
                + #"{"abbr_en":"AM","channel_id":1,"live":true,"name":"Ambient","name_en":"Ambient","seq_id":1},"#))
            // And RadioAPI's decoder reads it back as the station describes it, marks and all.
            let live = station.libraryInfo.channels.map { channel in
                var listed = channel
                listed.live = channel.id != "0"
                return listed
            }
            #expect(try APIDecoder.channels(answer.body) == live)
        }
    }
}
