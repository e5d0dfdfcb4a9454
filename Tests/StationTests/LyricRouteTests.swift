import Foundation
import MusicLibrary
import RadioAPI
@testable import Station
import Testing
import TestSupport

/// Douban's lyric call (`/v2/fm/lyric`) answered from real files: a sidecar `NAME.lrc`
/// beside a song, and lyrics embedded by ffmpeg (`-metadata lyrics=`) and by TagLib (USLT,
/// SYLT) in MP3, FLAC, Ogg Vorbis and MP4.
@Suite("Lyrics")
struct LyricRouteTests {
    static let sidecarText = "[ti:夜曲]\n[00:01.00]第一行 wide line\n[00:02.50][00:04.00]second line\n"

    /// A library of one song per way lyrics can be kept, and one song without any.
    static func makeLibrary(in music: TemporaryDirectory) throws {
        try MediaFactory.tone(at: music.path("sidecar.mp3"), seconds: 1, tags: ["title": "Sidecar Song"])
        try Data(sidecarText.utf8).write(to: music.path("sidecar.lrc"))
        try MediaFactory.tone(at: music.path("flac.flac"), seconds: 1,
                              tags: ["title": "Flac Song", "lyrics": "[00:00.50]from a vorbis comment"])
        try MediaFactory.tone(at: music.path("mp4.m4a"), seconds: 1,
                              tags: ["title": "MP4 Song", "lyrics": "plain words\nin two lines"])
        try MediaFactory.tone(at: music.path("vorbis.ogg"), seconds: 1,
                              tags: ["title": "Ogg Song", "UNSYNCEDLYRICS": "unsynced in ogg"])
        try MediaFactory.tone(at: music.path("uslt.mp3"), seconds: 1, tags: ["title": "USLT Song"])
        try MediaFactory.tone(at: music.path("sylt.mp3"), seconds: 1, tags: ["title": "SYLT Song"])
        try MediaFactory.tone(at: music.path("bare.mp3"), seconds: 1, tags: ["title": "Bare Song"])
        let uslt = TagLibFile.open(music.path("uslt.mp3").path) { $0.setLyrics("[00:03.00]in a USLT frame") && $0.save() }
        let sylt = TagLibFile.open(music.path("sylt.mp3").path) { file in
            file.setSyncedLyrics([(milliseconds: 1_230, text: "synced one"), (milliseconds: 61_500, text: "synced two")])
                && file.save()
        }
        #expect(uslt == true && sylt == true)
    }

    @Test("POST /v2/fm/lyric answers each song's lyrics in Douban's shape: sidecar first, then SYLT, USLT, LYRICS, ©lyr, UNSYNCEDLYRICS")
    func lyricsOfEveryKind() async throws {
        let music = try TemporaryDirectory(prefix: "mhz-lyric-library")
        try await offPool { try Self.makeLibrary(in: music) }
        try await StationFixtures.withDemoStation(library: music.url) { station, base in
            let tracks = Dictionary(uniqueKeysWithValues: station.servedLibrary.tracks.map { ($0.title, $0) })
            #expect(tracks.count == 7)
            let expected: [String: String] = [
                "Sidecar Song": Self.sidecarText,
                "Flac Song": "[00:00.50]from a vorbis comment",
                "MP4 Song": "plain words\nin two lines",
                "Ogg Song": "unsynced in ogg",
                "USLT Song": "[00:03.00]in a USLT frame",
                "SYLT Song": "[00:01.23]synced one\n[01:01.50]synced two\n",
                "Bare Song": "",
            ]
            for (title, lyric) in expected {
                let track = try #require(tracks[title])
                let answer = try await HTTPFetch.post(base, "/v2/fm/lyric", form: "sid=\(track.sid)&ssid=\(track.ssid)")
                #expect(answer.status == 200)
                #expect(answer.headers["content-type"]?.hasPrefix("application/json") == true)
                #expect(try APIDecoder.lyric(answer.body) == SongLyric(lyric: lyric, name: title, sid: track.sid), "\(title)")
            }
            // The same over GET with the query, and in-process.
            let sidecar = try #require(tracks["Sidecar Song"])
            let viaGet = try await HTTPFetch.get(base, "/v2/fm/lyric?sid=\(sidecar.sid)&ssid=\(sidecar.ssid)")
            #expect(try APIDecoder.lyric(viaGet.body).lyric == Self.sidecarText)
            let inProcess = await station.respond(method: "POST", path: "/v2/fm/lyric", query: nil,
                                                  body: Data("sid=\(sidecar.sid)&ssid=\(sidecar.ssid)".utf8))
            #expect(inProcess.body == viaGet.body)
        }
    }

    @Test("an unknown sid answers an empty lyric and name; a missing sid is 400 missing_sid")
    func unknownAndMissing() async throws {
        let music = try TemporaryDirectory(prefix: "mhz-lyric-library")
        try await offPool { try MediaFactory.tone(at: music.path("one.mp3"), seconds: 1, tags: ["title": "One"]) }
        try await StationFixtures.withDemoStation(library: music.url) { _, base in
            let unknown = try await HTTPFetch.post(base, "/v2/fm/lyric", form: "sid=999&ssid=abcd")
            #expect(try APIDecoder.lyric(unknown.body) == SongLyric(lyric: "", name: "", sid: "999"))
            let missing = try await HTTPFetch.post(base, "/v2/fm/lyric", form: "ssid=abcd")
            #expect(missing.status == 400)
            #expect(String(decoding: missing.body, as: UTF8.self) == #"{"err":"missing_sid","r":1}"#)
        }
    }

    @Test("a sidecar in UTF-16 or with a UTF-8 byte order mark reads as its text")
    func sidecarEncodings() throws {
        let text = "[00:01.00]夜"
        #expect(TrackLyrics.decode(Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8)) == text)
        #expect(TrackLyrics.decode(text.data(using: .utf16)!) == text)
        #expect(TrackLyrics.decode(Data([0x5B, 0xE9, 0x5D])) == "[é]")
    }
}
