import Foundation
import RadioAPI
@testable import Station
import Testing
import TestSupport
@testable import MusicLibrary

/// The station over 300 files in six formats written by ffmpeg (``GeneratedLibrary``):
/// tags, covers, channel and playlist shapes, ranges and traversal.
@Suite("Generated library")
struct GeneratedLibraryTests {
    @Test("a scan reads every file's tags, length, bitrate and cover; untagged files are named from their path")
    func scan() async throws {
        let root = try await GeneratedLibrary.root
        try await StationFixtures.withDemoStation(library: root) { station, _ in
            #expect(!station.libraryInfo.isDemo)
            #expect(station.lastScan.files == 300)
            #expect(station.lastScan.read == 300)
            let library = station.servedLibrary
            #expect(library.tracks.map(\.relativePath) == GeneratedLibrary.files.map(\.path))
            let covers = CoverStore(directory: station.configuration.coverDirectory)
            for expected in GeneratedLibrary.files {
                let track = try #require(library.tracks.first { $0.relativePath == expected.path })
                #expect(track.title == expected.title, "\(expected.path)")
                #expect(track.artist == expected.artist, "\(expected.path)")
                #expect(track.album == expected.album, "\(expected.path)")
                #expect(track.genre == expected.genre, "\(expected.path)")
                #expect(track.year == expected.year, "\(expected.path)")
                #expect(track.durationSeconds == 1, "\(expected.path): \(track.durationSeconds)")
                #expect(track.bitrate > 0, "\(expected.path)")
                if let image = expected.cover {
                    let stored = try #require(covers.file(named: track.cover), "\(expected.path): no cover")
                    #expect(try Data(contentsOf: stored) == image, "\(expected.path)")
                } else {
                    #expect(track.cover == "", "\(expected.path)")
                }
            }
            // One file per distinct image: 30 covered albums (mp3, flac, m4a and one folder image).
            let names = Set(library.tracks.map(\.cover).filter { !$0.isEmpty })
            #expect(names.count == Set(GeneratedLibrary.files.compactMap(\.cover)).count)
            #expect(names.allSatisfy { $0.hasSuffix(".png") && $0.count == 20 })
        }
    }

    @Test("/j/app/radio/channels: personal, five genres, five decades; every field with its JSON type")
    func channels() async throws {
        try await StationFixtures.withGeneratedStation { _, base in
            let answer = try await HTTPFetch.get(base, "/j/app/radio/channels")
            #expect(answer.status == 200)
            #expect(answer.headers["content-type"] == "application/json; charset=utf-8")
            let json = try answer.jsonObject()
            #expect(Array(json.keys) == ["channels"])
            let channels = try #require(json["channels"] as? [[String: Any]])
            let expected: [(id: Int, name: String, english: String, abbreviation: String)] = [
                (0, "私人兆赫", "Personal Radio", "My"),
                (1, "Classical", "Classical", "CL"), (2, "Electronic", "Electronic", "EL"), (3, "Folk", "Folk", "FO"),
                (4, "Jazz", "Jazz", "JA"), (5, "Rock", "Rock", "RO"),
                (6, "1970s", "1970s", "70s"), (7, "1980s", "1980s", "80s"), (8, "1990s", "1990s", "90s"),
                (9, "2000s", "2000s", "00s"), (10, "2010s", "2010s", "10s"),
            ]
            #expect(channels.count == expected.count)
            for (index, (channel, want)) in zip(channels, expected).enumerated() {
                let douban: Set<String> = ["channel_id", "name", "name_en", "abbr_en", "seq_id"]
                #expect(Set(channel.keys) == (want.id == 0 ? douban : douban.union(["live"])))
                #expect(channel["channel_id"] is NSNumber && !(channel["channel_id"] is String))
                #expect((channel["channel_id"] as? NSNumber)?.intValue == want.id)
                #expect(channel["seq_id"] is NSNumber && (channel["seq_id"] as? NSNumber)?.intValue == index)
                #expect(channel["name"] as? String == want.name)
                #expect(channel["name_en"] as? String == want.english)
                #expect(channel["abbr_en"] as? String == want.abbreviation)
            }
            // A genre channel holds exactly its genre; a decade channel exactly its decade.
            let rock = try songs(try await HTTPFetch.get(base, "/j/app/radio/people?app_name=radio_android&version=100&channel=5&type=n&sid="))
            #expect(rock.count == 5)
            let rockArtists = Set(GeneratedLibrary.files.filter { $0.genre == "Rock" }.map(\.artist))
            #expect(rock.allSatisfy { rockArtists.contains($0["artist"] as? String ?? "") })
            let eighties = try songs(try await HTTPFetch.get(base, "/j/app/radio/people?app_name=radio_android&version=100&channel=7&type=n&sid="))
            #expect(eighties.count == 5)
            #expect(eighties.allSatisfy { ($0["public_time"] as? String)?.hasPrefix("198") == true })
        }
    }

    @Test("signed-in lists of n, p, s, b and the red-heart channel: r, version_max and song, every song field with the app API's type; covers served")
    func playlistShape() async throws {
        try await StationFixtures.withGeneratedStation { station, base in
            let credentials = try await StationFixtures.signIn("shape", station: station, base: base)
            let query = "/j/app/radio/people?app_name=radio_android&version=100" + credentials
            var checker = ShapeChecker(base: base)
            var last: [String] = []
            for _ in 0..<12 {
                let answer = try await HTTPFetch.get(base, query + "&channel=0&type=n&sid=")
                last = try await checker.check(answer, count: 5, liked: false, "n")
            }
            // p, s and b report a song of the last list and answer a list of the same shape.
            for type in ["p", "s", "b"] {
                let answer = try await HTTPFetch.get(base, query + "&channel=0&type=\(type)&sid=\(last[1])")
                last = try await checker.check(answer, count: 5, liked: false, type)
            }
            // The red-heart channel of a listener: the liked songs, in the order liked, like = 1.
            let hearts = Array(last.prefix(3))
            for sid in hearts {
                let answer = try await HTTPFetch.get(base, query + "&channel=0&type=r&sid=\(sid)")
                #expect((try answer.jsonObject()["r"] as? NSNumber)?.intValue == 0)
                #expect((try answer.jsonObject()["song"] as? [Any])?.isEmpty == false)
            }
            let answer = try await HTTPFetch.get(base, query + "&channel=-3&type=n&sid=")
            let liked = try await checker.check(answer, count: 3, liked: true, "-3")
            #expect(Set(liked) == Set(hearts))
            #expect(checker.coversServed > 0)
        }
    }

    /// Checks playlist answers field by field against the app API's shapes and the
    /// generated files, and fetches each song's cover once.
    private struct ShapeChecker {
        let base: URL
        private var fetched: Set<String> = []
        /// How many distinct covers were fetched and matched.
        private(set) var coversServed = 0

        init(base: URL) {
            self.base = base
        }

        /// Checks one answer; returns its song ids.
        mutating func check(_ answer: Fetched, count: Int, liked: Bool, _ label: String) async throws -> [String] {
            #expect(answer.status == 200, "\(label)")
            #expect(answer.headers["content-type"] == "application/json; charset=utf-8", "\(label)")
            let json = try answer.jsonObject()
            #expect(Set(json.keys) == ["r", "version_max", "song"], "\(label)")
            #expect(json["r"] is NSNumber && (json["r"] as? NSNumber)?.intValue == 0, "\(label)")
            #expect(json["version_max"] is NSNumber && (json["version_max"] as? NSNumber)?.intValue == 100, "\(label)")
            let list = try #require(json["song"] as? [[String: Any]], "\(label)")
            #expect(list.count == count, "\(label)")
            var sids: [String] = []
            for song in list {
                // The app API's fields, and the station's `reason` (an extension clients ignore).
                #expect(Set(song.keys) == ["album", "picture", "ssid", "artist", "url", "company", "title", "length",
                                           "subtype", "public_time", "sid", "aid", "kbps", "albumtitle", "like",
                                           "rating_avg", "reason"], "\(label)")
                #expect((song["reason"] as? String)?.isEmpty == false, "\(label)")
                #expect(song["rating_avg"] is NSNumber, "\(label)")
                for key in ["album", "picture", "ssid", "artist", "url", "company", "title", "subtype", "public_time",
                            "sid", "aid", "kbps", "albumtitle"] {
                    #expect(song[key] is String, "\(label): \(key) is a string")
                }
                #expect(song["length"] is NSNumber && (song["length"] as? NSNumber)?.intValue == 1, "\(label)")
                #expect(song["like"] is NSNumber && (song["like"] as? NSNumber)?.intValue == (liked ? 1 : 0), "\(label)")
                let sid = try #require(song["sid"] as? String)
                #expect(sid.count == 9 && Int(sid) != nil, "\(label)")
                sids.append(sid)
                let ssid = try #require(song["ssid"] as? String)
                #expect(ssid.count == 4 && ssid.allSatisfy(\.isHexDigit), "\(label)")
                let aid = try #require(song["aid"] as? String)
                #expect(song["album"] as? String == "/subject/\(aid)/", "\(label)")
                #expect(song["company"] as? String == "" && song["subtype"] as? String == "", "\(label)")
                let file = try #require(GeneratedLibrary.files.first { $0.title == song["title"] as? String })
                let ext = (file.path as NSString).pathExtension
                // No kbps asked: MP3 at 128 kbit/s, transcoded; the 32 kbit/s MP3s are served as they are.
                let served = ext == "mp3" ? "\(sid).mp3" : "\(sid)-128k.mp3"
                #expect(song["url"] as? String == "\(base.absoluteString)/media/\(served)", "\(label)")
                // An original's kbps is what TagLib reads: 33 for these files ffmpeg wrote at 32.
                #expect(song["kbps"] as? String == (ext == "mp3" ? "33" : "128"), "\(label): kbps")
                #expect(song["artist"] as? String == file.artist, "\(label)")
                #expect(song["albumtitle"] as? String == file.album, "\(label)")
                #expect(song["public_time"] as? String == (file.year > 0 ? String(file.year) : ""), "\(label)")
                let picture = try #require(song["picture"] as? String)
                if let image = file.cover {
                    #expect(picture.hasPrefix(base.absoluteString + "/cover/") && picture.hasSuffix(".png"), "\(label)")
                    if fetched.insert(picture).inserted {
                        let served = try await HTTPFetch.get(URL(string: picture)!)
                        #expect(served.status == 200)
                        #expect(served.headers["content-type"] == "image/png")
                        #expect(served.body == image)
                        coversServed += 1
                    }
                } else {
                    #expect(picture == "\(base.absoluteString)/cover/drawn-\(aid).png", "\(label)")
                }
            }
            #expect(Set(sids).count == sids.count, "\(label): a song twice in one list")
            return sids
        }
    }

    @Test("Range requests on every format answer 206 with exactly the asked bytes")
    func ranges() async throws {
        try await StationFixtures.withGeneratedStation { station, base in
            let library = station.servedLibrary
            for format in GeneratedLibrary.formats {
                let track = try #require(library.tracks.first { $0.fileExtension == format })
                let bytes = try Data(contentsOf: track.file)
                let url = URL(string: "\(base.absoluteString)/media/\(track.mediaFileName)")!
                let middle = try await HTTPFetch.get(url, headers: ["Range": "bytes=10-59"])
                #expect(middle.status == 206, "\(format)")
                #expect(middle.headers["content-range"] == "bytes 10-59/\(bytes.count)", "\(format)")
                #expect(middle.body == bytes[10..<60], "\(format)")
                let tail = try await HTTPFetch.get(url, headers: ["Range": "bytes=-7"])
                #expect(tail.status == 206, "\(format)")
                #expect(tail.body == bytes.suffix(7), "\(format)")
                let beyond = try await HTTPFetch.get(url, headers: ["Range": "bytes=\(bytes.count + 10)-"])
                #expect(beyond.status == 416, "\(format)")
                #expect(beyond.headers["content-range"] == "bytes */\(bytes.count)", "\(format)")
            }
        }
    }

    @Test("traversal and foreign names under /media and /cover never reach a file")
    func traversal() async throws {
        try await StationFixtures.withGeneratedStation { station, base in
            let port = try #require(base.port)
            let cover = try #require(station.servedLibrary.tracks.first { !$0.cover.isEmpty }?.cover)
            let dotted = ["/media/../../etc/passwd", "/media/%2e%2e/%2e%2e/etc/passwd", "/cover/..%2f..%2fetc%2fpasswd",
                          "/cover/%2E%2E/station.sqlite", "/cover/../station.sqlite", "/media/..%2f..%2fstation.sqlite",
                          "/cover/%2e%2E%2F\(cover)", "/media/%zz/../x.mp3"]
            let foreign = dotted + ["/cover/station.sqlite", "/cover/\(cover).png", "/cover/" + cover.uppercased(),
                           "/cover/0123456789abcdef.png", "/cover/%2Fetc%2Fpasswd", "/media/%2Fetc%2Fpasswd",
                           "/media/Artist%2000%2FAlbum%2000-0%2F01%20Song%2000-0-1.mp3", "/station.sqlite"]
            for target in foreign {
                let answer = try await RawHTTP.get(port: port, target: target)
                #expect(answer.status == 404, "\(target)")
                #expect(answer.text == #"{"err":"not_found","r":1}"#, "\(target)")
            }
            #expect(try await RawHTTP.get(port: port, target: "/cover/\(cover)").status == 200)
        }
    }

    private func songs(_ answer: Fetched) throws -> [[String: Any]] {
        try #require(try answer.jsonObject()["song"] as? [[String: Any]])
    }
}
