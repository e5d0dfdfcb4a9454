import Foundation
import RadioAPI
import Station
import Testing

/// `GET /j/app/radio/people`: list shapes, reports, errors and per-listener memory.
@Suite("People endpoint")
struct PeopleEndpointTests {
    /// Logs in a fresh account on the station: its query-string credentials.
    private func login(_ name: String, _ station: Station, _ base: URL) async throws -> String {
        try await StationFixtures.signIn(name, station: station, base: base)
    }

    private func people(_ base: URL, _ query: String) async throws -> Fetched {
        try await HTTPFetch.get(base, "/j/app/radio/people?app_name=radio_android&version=100" + query)
    }

    /// Whether an answer is a successful list with songs (what `r` and `u` answer now).
    private func listAnswer(_ answer: Fetched) throws -> Bool {
        let json = try answer.jsonObject()
        let list = try songs(answer)
        return answer.status == 200 && (json["r"] as? NSNumber)?.intValue == 0 && !list.isEmpty
    }

    private func songs(_ answer: Fetched) throws -> [[String: Any]] {
        try #require(try answer.jsonObject()["song"] as? [[String: Any]])
    }

    @Test("n: an anonymous list of 5 songs, every field with the app API's type")
    func newListShape() async throws {
        try await StationFixtures.withDemoStation { station, base in
            let alice = try await login("alice", station, base)
            let answer = try await people(base, "&channel=0&type=n&sid=&kbps=64")
            #expect(answer.status == 200)
            #expect(answer.headers["content-type"] == "application/json; charset=utf-8")
            let json = try answer.jsonObject()
            #expect(Set(json.keys) == ["r", "version_max", "logout", "song"])
            #expect((json["r"] as? NSNumber)?.intValue == 0 && !(json["r"] is String))
            #expect((json["version_max"] as? NSNumber)?.intValue == 100)
            #expect((json["logout"] as? NSNumber)?.intValue == 1)
            let list = try songs(answer)
            #expect(list.count == 5)
            #expect(Set(list.compactMap { $0["sid"] as? String }).count == 5)
            for song in list {
                #expect(Set(song.keys) == ["album", "picture", "ssid", "artist", "url", "company", "title", "length",
                                           "subtype", "public_time", "sid", "aid", "kbps", "albumtitle", "like",
                                           "rating_avg", "reason"])
                // mhz's extension: why the song was chosen; an anonymous listener taught nothing.
                #expect(song["reason"] as? String == "something new for you")
                let sid = try #require(song["sid"] as? String)
                #expect(sid.count == 9 && Int(sid) != nil)
                let ssid = try #require(song["ssid"] as? String)
                #expect(ssid.count == 4 && ssid.allSatisfy(\.isHexDigit))
                let aid = try #require(song["aid"] as? String)
                #expect(aid.count == 7 && Int(aid) != nil)
                #expect(song["album"] as? String == "/subject/\(aid)/")
                // The demo library is MP3 at 64 kbit/s: asked for 64, the file is served as it is.
                #expect(song["url"] as? String == base.absoluteString + "/media/\(sid).mp3")
                #expect(song["like"] is NSNumber && (song["like"] as? NSNumber)?.intValue == 0)
                let length = try #require((song["length"] as? NSNumber)?.intValue)
                #expect((20...60).contains(length))
                #expect(song["length"] is NSNumber && !(song["length"] is String))
                #expect(song["kbps"] as? String == "64")
                // Nobody rated anything yet: the prior, 3.5, as a JSON number.
                #expect((song["rating_avg"] as? NSNumber)?.doubleValue == 3.5 && !(song["rating_avg"] is String))
                #expect((song["public_time"] as? String)?.count == 4)
                #expect(song["subtype"] as? String == "")
                // The demo files carry no cover: the station draws one per album.
                #expect(song["picture"] as? String == base.absoluteString + "/cover/drawn-\(aid).png")
                #expect(song["company"] as? String == "")
                #expect(!((song["title"] as? String) ?? "").isEmpty)
                #expect(!((song["artist"] as? String) ?? "").isEmpty)
                #expect(!((song["albumtitle"] as? String) ?? "").isEmpty)
            }
            let cover = try await HTTPFetch.get(base, "/cover/drawn-\(try #require(list.first?["aid"] as? String)).png")
            #expect(cover.status == 200 && cover.headers["content-type"] == "image/png")
            #expect(cover.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            // RadioAPI decodes it as a client would.
            let playlist = try APIDecoder.playlist(answer.body, for: .new)
            #expect(playlist.loggedOut && playlist.songs.count == 5 && playlist.versionMax == 100)

            // With credentials: no logout flag.
            let signedIn = try await people(base, alice + "&channel=0&type=n&sid=")
            #expect(Set(try signedIn.jsonObject().keys) == ["r", "version_max", "song"])
        }
    }

    @Test("genre channels list only their genre; p, s and b answer lists too")
    func genreChannelAndListTypes() async throws {
        try await StationFixtures.withDemoStation { station, base in
            let bob = try await login("bob", station, base)
            let folk = try songs(try await people(base, "&channel=3&type=n&sid="))
            #expect(folk.count == 3)
            let folkTitles = Set(folk.compactMap { $0["title"] as? String })
            #expect(folkTitles == ["Willow Road", "The Ferryman's Waltz", "月光小路"])
            let sid = try #require(folk.first?["sid"] as? String)
            for type in ["p", "s", "b"] {
                let list = try songs(try await people(base, bob + "&channel=3&type=\(type)&sid=\(sid)"))
                #expect(!list.isEmpty, "\(type)")
            }
        }
    }

    @Test("e is acknowledged with exactly {\"r\":0}; r and u answer a list, as Douban's app did")
    func shortReports() async throws {
        try await StationFixtures.withDemoStation { station, base in
            let alice = try await login("alice", station, base)
            let sid = try #require(try songs(try await people(base, "&channel=0&type=n&sid=")).first?["sid"] as? String)
            let end = try await people(base, alice + "&channel=0&type=e&sid=\(sid)&pt=12.5")
            #expect(end.status == 200)
            #expect(end.text == #"{"r":0}"#)
            for type in ["r", "u"] {
                let answer = try await people(base, alice + "&channel=0&type=\(type)&sid=\(sid)&pt=12.5")
                #expect(answer.status == 200)
                let json = try answer.jsonObject()
                #expect(Set(json.keys) == ["r", "version_max", "song"], "\(type)")
                #expect((json["r"] as? NSNumber)?.intValue == 0)
                let list = try songs(answer)
                #expect(list.count == 5, "\(type)")
                // The song reported is the one playing: never in its own answer.
                #expect(!list.contains { $0["sid"] as? String == sid })
            }
        }
    }

    @Test("refusals are in-band JSON with HTTP 200 and a short error word")
    func errors() async throws {
        try await StationFixtures.withDemoStation { station, base in
            let cases: [(query: String, word: String)] = [
                ("&channel=0&sid=", "missing_type"),
                ("&channel=0&type=x&sid=", "invalid_type"),
                ("&channel=0&type=nn&sid=", "invalid_type"),
                ("&channel=0&type=s&sid=", "missing_sid"),
                ("&channel=0&type=e", "missing_sid"),
                ("&channel=0&type=p&sid=", "missing_sid"),
                ("&channel=99&type=n&sid=", "invalid_channel"),
                ("&channel=dj&type=n&sid=", "invalid_channel"),
                ("&channel=0&type=r&sid=123", "invalid_sid"),
                ("&channel=0&type=b&sid=999999999", "invalid_sid"),
            ]
            for (query, word) in cases {
                let answer = try await people(base, query)
                #expect(answer.status == 200, "\(query)")
                // Keys are sorted: the station's encoder is byte-stable.
                #expect(answer.text == #"{"err":"\#(word)","r":1}"#, "\(query)")
            }
            #expect(throws: APIError.server("missing_sid")) {
                try APIDecoder.playlist(Data(#"{"r":1,"err":"missing_sid"}"#.utf8), for: .skip)
            }
        }
    }

    @Test("the red-heart channel: anonymous gets the warning shape; a listener gets their likes")
    func redHeart() async throws {
        try await StationFixtures.withDemoStation { station, base in
            let alice = try await login("alice", station, base)
            let anonymous = try await people(base, "&channel=-3&type=n&sid=")
            #expect(anonymous.text == #"{"is_show_quick_start":1,"r":0,"song":[],"warning":"user_is_ananymous"}"#)
            let shape = try anonymous.jsonObject()
            #expect(Set(shape.keys) == ["r", "warning", "is_show_quick_start", "song"])
            #expect((shape["r"] as? NSNumber)?.intValue == 0 && (shape["is_show_quick_start"] as? NSNumber)?.intValue == 1)
            #expect(shape["warning"] as? String == "user_is_ananymous")
            #expect((shape["song"] as? [Any])?.isEmpty == true)

            let empty = try await people(base, alice + "&channel=-3&type=n&sid=")
            #expect(empty.text == #"{"r":0,"song":[],"version_max":100}"#)

            let sid = try #require(try songs(try await people(base, "&channel=0&type=n&sid=")).first?["sid"] as? String)
            #expect(try await listAnswer(people(base, alice + "&channel=0&type=r&sid=\(sid)")))
            let hearts = try songs(try await people(base, alice + "&channel=-3&type=n&sid="))
            #expect(hearts.map { $0["sid"] as? String } == [sid])
            #expect((hearts.first?["like"] as? NSNumber)?.intValue == 1)
        }
    }

    @Test("a trashed song never comes back to that listener, but does to another")
    func trash() async throws {
        try await StationFixtures.withDemoStation(seed: 42) { station, base in
            let alice = try await login("alice", station, base)
            let bob = try await login("bob", station, base)
            let first = try songs(try await people(base, alice + "&channel=0&type=n&sid="))
            let trashed = try #require(first.first?["sid"] as? String)
            let afterTrash = try songs(try await people(base, alice + "&channel=0&type=b&sid=\(trashed)"))
            #expect(afterTrash.count == 5)
            #expect(!afterTrash.contains { $0["sid"] as? String == trashed })
            var bobHeardIt = 0
            for _ in 0..<30 {
                let alice = try songs(try await people(base, alice + "&channel=0&type=n&sid="))
                #expect(alice.count == 5)
                #expect(!alice.contains { $0["sid"] as? String == trashed })
                let bob = try songs(try await people(base, bob + "&channel=0&type=n&sid="))
                if bob.contains(where: { $0["sid"] as? String == trashed }) { bobHeardIt += 1 }
            }
            // 5 of 9 songs per list: Bob meets it in about 17 of 30 lists.
            #expect(bobHeardIt >= 5)
            // The anonymous listener is a listener too: Alice's trash is hers alone.
            var anonymousHeardIt = false
            for _ in 0..<30 where !anonymousHeardIt {
                let list = try songs(try await people(base, "&channel=0&type=n&sid="))
                anonymousHeardIt = list.contains { $0["sid"] as? String == trashed }
            }
            #expect(anonymousHeardIt)
        }
    }

    @Test("a liked song shows like:1 to its listener only, until unliked")
    func likes() async throws {
        try await StationFixtures.withDemoStation(seed: 5) { station, base in
            let alice = try await login("alice", station, base)
            let bob = try await login("bob", station, base)
            let liked = try #require(try songs(try await people(base, "&channel=0&type=n&sid=")).first?["sid"] as? String)
            #expect(try await listAnswer(people(base, alice + "&channel=0&type=r&sid=\(liked)")))

            func likeFlag(_ listener: String) async throws -> Int? {
                for _ in 0..<30 {
                    let list = try songs(try await people(base, listener + "&channel=0&type=n&sid="))
                    if let song = list.first(where: { $0["sid"] as? String == liked }) {
                        return (song["like"] as? NSNumber)?.intValue
                    }
                }
                return nil
            }
            #expect(try await likeFlag(alice) == 1)
            #expect(try await likeFlag(bob) == 0)
            #expect(try await likeFlag("") == 0)
            #expect(try await listAnswer(people(base, alice + "&channel=0&type=u&sid=\(liked)")))
            #expect(try await likeFlag(alice) == 0)
        }
    }

    @Test("the current song and the h history are not repeated while the channel has others")
    func historyAvoided() async throws {
        try await StationFixtures.withDemoStation(seed: 9) { station, base in
            let all = station.libraryInfo.trackCount
            #expect(all == 9)
            let first = try songs(try await people(base, "&channel=0&type=n&sid="))
            let sids = first.compactMap { $0["sid"] as? String }
            let current = sids[0]
            let history = "|\(sids[1]):p|\(sids[2]):s|\(sids[3]):e"
            let escaped = FormEncoding.escape(history)
            for _ in 0..<20 {
                let next = try songs(try await people(base, "&channel=0&type=s&sid=\(current)&h=\(escaped)"))
                let nextSIDs = Set(next.compactMap { $0["sid"] as? String })
                // 9 songs − 4 recent = exactly 5 fresh ones: the list is those, always.
                #expect(nextSIDs.count == 5)
                #expect(nextSIDs.isDisjoint(with: sids.prefix(4)))
            }

            // A 3-song channel cannot avoid them all: the unheard song first, then the ones
            // heard longest ago.
            let folk = try songs(try await people(base, "&channel=3&type=n&sid=")).compactMap { $0["sid"] as? String }
            let folkHistory = FormEncoding.escape("|\(folk[1]):e")
            let refill = try songs(try await people(base, "&channel=3&type=s&sid=\(folk[0])&h=\(folkHistory)"))
            #expect(refill.compactMap { $0["sid"] as? String } == [folk[2], folk[1], folk[0]])
        }
    }

    @Test("song URLs follow the Host the client used; a malformed Host falls back to the bound address")
    func urlsFollowHost() async throws {
        try await StationFixtures.withDemoStation { station, base in
            let port = try #require(base.port)
            let target = "/j/app/radio/people?app_name=radio_android&version=100&channel=0&type=n&sid="
            let named = try await RawHTTP.get(port: port, target: target, host: "radio.example:8080")
            let urls = try songs(named).compactMap { $0["url"] as? String }
            #expect(urls.count == 5)
            #expect(urls.allSatisfy { $0.hasPrefix("http://radio.example:8080/media/") })

            let hostile = try await RawHTTP.get(port: port, target: target, host: "evil.example/x?")
            let fallback = try songs(hostile).compactMap { $0["url"] as? String }
            #expect(fallback.allSatisfy { $0.hasPrefix(base.absoluteString + "/media/") })
        }
    }
}
