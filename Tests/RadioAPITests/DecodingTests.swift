import Foundation
import Testing
@testable import RadioAPI

/// Recorded responses decode to exactly the values they hold, and every type variant
/// real servers used is accepted.
struct DecodingTests {
    @Test func appPlaylistFixtureDecodesEverySong() throws {
        let playlist = try APIDecoder.playlist(
            try Fixture.data("app-radio-people_type-n_playlist_linq-doubanfm_tests-songs.json"), for: .new)
        #expect(playlist.songs.map(\.sid) == ["280187", "107686", "1000411", "552456", "1024291"])
        #expect(playlist.versionMax == 100)
        let first = try #require(playlist.songs.first)
        #expect(first.title == "Free Loop")
        #expect(first.artist == "Daniel Powter")
        #expect(first.albumTitle == "Daniel Powter")
        #expect(first.album == "/subject/1421922/")
        #expect(first.length == 228)
        #expect(first.kbps == 64)
        #expect(first.like == false)
        #expect(first.publicTime == "2006")
        #expect(first.ratingAverage == 4.31568)
        #expect(first.url == "http://mr3.douban.com/201303301916/28b0ac2e5570fa0372eb8e330bb68ec1/view/song/small/p280187.mp3")
        #expect(playlist.songs[3].artist == "陈奕迅")
        #expect(playlist.songs[3].title == "好久不见")
    }

    @Test func webV2PlaylistWithTabsAndLaterFieldsDecodes() throws {
        let playlist = try APIDecoder.playlist(
            try Fixture.data("j-v2-playlist_type-n_chengzeyi-FM_playlist.cpp-comment.json"), for: .new)
        #expect(playlist.isAnonymous)
        #expect(playlist.songs.count == 1)
        #expect(playlist.songs[0].sid == "82943")
        #expect(playlist.songs[0].title == "大小姐")
    }

    @Test func mobileV2PlaylistDecodes() throws {
        let playlist = try APIDecoder.playlist(
            try Fixture.data("v2fm-playlist_wangfu91-DoubanFM_SampleData-playlist.json"), for: .new)
        #expect(playlist.songs.count == 1)
        #expect(playlist.songs[0].albumTitle == "玩具")
    }

    @Test func anonymousEmptyListIsSuccessWithWarning() throws {
        let playlist = try APIDecoder.playlist(
            try Fixture.data("web-mine-playlist_anonymous-empty_ampm-Douban-FM-sdk_TestResponses-NONE_AUTH.json"),
            for: .new)
        #expect(playlist.songs.isEmpty)
        #expect(playlist.isAnonymous)
        #expect(playlist.showQuickStart == 1)
    }

    @Test func appLoginFixtureDecodes() throws {
        let credentials = try APIDecoder.appLogin(try Fixture.data("app-login_success_linq-doubanfm_tests-user.json"))
        #expect(credentials == AppCredentials(userID: "51619168", token: "edbee64aed", expire: "1380162127",
                                              userName: "listener", email: "listener@example.com"))
    }

    @Test(arguments: [
        (#"{"sid":280187,"url":"u","like":"1","length":"228","kbps":128}"#, true, 228, 128),
        (#"{"sid":"1","url":"u","like":false,"length":228.4,"kbps":"64"}"#, false, 228, 64),
        (#"{"sid":"1","url":"u","like":1,"length":null}"#, true, 0, nil),
    ] as [(String, Bool, Int, Int?)])
    func songFieldTypeVariants(json: String, like: Bool, length: Int, kbps: Int?) throws {
        let song = try JSONDecoder().decode(Song.self, from: Data(json.utf8))
        #expect(song.like == like)
        #expect(song.length == length)
        #expect(song.kbps == kbps)
    }

    @Test func shortReportAcknowledgements() throws {
        #expect(try APIDecoder.playlist(Data(#""ok""#.utf8), for: .end).songs.isEmpty)
        #expect(try APIDecoder.playlist(Data(#""OK""#.utf8), for: .end).songs.isEmpty)
        #expect(try APIDecoder.playlist(Data(#"{"r":0}"#.utf8), for: .end).songs.isEmpty)
    }

    @Test func byteOrderMarkIsIgnored() throws {
        let body = Data([0xEF, 0xBB, 0xBF]) + Data(#"{"r":0,"song":[]}"#.utf8)
        #expect(try APIDecoder.playlist(body, for: .new).songs.isEmpty)
    }

    @Test func inBandErrorsAreTyped() {
        #expect(throws: APIError.expired) { try APIDecoder.playlist(Data(#"{"r":1,"err":"expired"}"#.utf8), for: .new) }
        #expect(throws: APIError.server("wrong_version")) {
            try APIDecoder.playlist(Data(#"{"r":1,"err":"wrong_version"}"#.utf8), for: .new)
        }
        #expect(throws: APIError.server("wrong_password")) {
            try APIDecoder.appLogin(Data(#"{"r":1,"err":"wrong_password"}"#.utf8))
        }
    }

    @Test func likedSongsPagesDecodeAndRefusalsAreTyped() throws {
        let page = try APIDecoder.likedSongs(Data(#"""
            {"r":0,"songs":[{"sid":"9","title":"B","artist":"b","url":"http://s/media/9.flac","like":1},
            {"sid":"4","title":"A","artist":"a","url":"http://s/media/4-64k.mp3","like":"1","kbps":"64"}]}
            """#.utf8))
        #expect(page.map(\.sid) == ["9", "4"])
        #expect(page.map(\.url) == ["http://s/media/9.flac", "http://s/media/4-64k.mp3"])
        #expect(page[1].kbps == 64)
        // Douban's recorded answers carry no `r`.
        #expect(try APIDecoder.likedSongs(Data(#"{"songs":[]}"#.utf8)) == [])
        #expect(throws: APIError.server("need_login")) { try APIDecoder.likedSongs(Data(#"{"err":"need_login","r":1}"#.utf8)) }
        #expect(throws: APIError.expired) { try APIDecoder.likedSongs(Data(#"{"err":"expired","r":1}"#.utf8)) }
        #expect(throws: APIError.notJSON(prefix: "<!DOCTYPE html><title>Not Found</title>")) {
            try APIDecoder.likedSongs(Data("<!DOCTYPE html><title>Not Found</title>".utf8))
        }
    }

    @Test func badBodiesAreNamed() {
        #expect(throws: APIError.emptyBody) { try APIDecoder.playlist(Data(), for: .new) }
        #expect(throws: APIError.emptyBody) { try APIDecoder.playlist(Data("  \n".utf8), for: .new) }
        #expect(throws: APIError.notJSON(prefix: "<html><body>502 Bad Gateway</body></html>")) {
            try APIDecoder.playlist(Data("<html><body>502 Bad Gateway</body></html>".utf8), for: .new)
        }
        #expect(throws: APIError.invalidEncoding) { try APIDecoder.playlist(Data([0x7B, 0xFF, 0xFE]), for: .new) }
        #expect(throws: APIError.malformed("invalid JSON at top level")) {
            try APIDecoder.playlist(Data(#"{"r":0,"song":[{"sid":"1""#.utf8), for: .new)
        }
        #expect(throws: APIError.malformed("missing \"sid\" at .song[0]")) {
            try APIDecoder.playlist(Data(#"{"r":0,"song":[{"url":"u"}]}"#.utf8), for: .new)
        }
    }

    @Test func channelsAcceptNumericAndStringIDs() throws {
        let body = #"{"channels":[{"name":"私人兆赫","seq_id":0,"abbr_en":"My","channel_id":0,"name_en":"Personal Radio"},{"name":"华语","seq_id":"1","abbr_en":"","channel_id":"1","name_en":""},{"name":"DJ","channel_id":"dj"}]}"#
        let channels = try APIDecoder.channels(Data(body.utf8))
        #expect(channels == [
            Channel(id: "0", name: "私人兆赫", nameEnglish: "Personal Radio", abbreviation: "My", sequence: 0),
            Channel(id: "1", name: "华语", sequence: 1),
            Channel(id: "dj", name: "DJ"),
        ])
    }

    @Test("a channel's live mark: mhz's true, absent elsewhere, a flag read leniently, nonsense not a mark")
    func channelsLiveMark() throws {
        let body = #"{"channels":[{"name":"My","channel_id":0},{"name":"Rock","channel_id":1,"live":true},"#
            + #"{"name":"Jazz","channel_id":2,"live":"1"},{"name":"Folk","channel_id":3,"live":{"x":1}},"#
            + #"{"name":"Pop","channel_id":4,"live":false}]}"#
        let channels = try APIDecoder.channels(Data(body.utf8))
        #expect(channels.map(\.live) == [false, true, true, false, false])
        // Encoded back: `live` only where true, so Douban's shape is untouched elsewhere.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(ChannelList(channels: Array(channels.prefix(2)))), as: UTF8.self)
        #expect(text == #"{"channels":[{"abbr_en":"","channel_id":0,"name":"My","name_en":"","seq_id":0},"#
            + #"{"abbr_en":"","channel_id":1,"live":true,"name":"Rock","name_en":"","seq_id":0}]}"#)
    }

    @Test func encodingRoundTripsAndUsesCanonicalTypes() throws {
        let song = Song(sid: "7", title: "T", artist: "A", url: "http://x/7.wav", length: 30, like: true, kbps: 352)
        let data = try JSONEncoder().encode(SongList(songs: [song]))
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let encoded = try #require((object["song"] as? [[String: Any]])?.first)
        #expect(encoded["sid"] as? String == "7")
        #expect(encoded["kbps"] as? String == "352")
        #expect(encoded["like"] as? Int == 1)
        #expect(encoded["length"] as? Int == 30)
        #expect(object["r"] as? Int == 0)
        #expect(try APIDecoder.playlist(data, for: .new).songs == [song])
    }
}
