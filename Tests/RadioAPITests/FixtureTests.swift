import Foundation
import Testing
@testable import RadioAPI

/// Every recorded response in `Fixtures/` decodes to exactly the values it holds.
struct FixtureTests {
    @Test func webV2PlaylistDecodesEveryField() throws {
        let playlist = try APIDecoder.playlist(
            try Fixture.data("j-v2-playlist_type-n_chengzeyi-FM_playlist.cpp-comment.json"), for: .new)
        #expect(playlist.status == 0)
        #expect(playlist.warning == "user_is_ananymous")
        #expect(playlist.versionMax == 100)
        #expect(playlist.showQuickStart == 0)
        #expect(playlist.loggedOut == false)
        #expect(playlist.songs == [Song(
            sid: "82943", ssid: "56e3", aid: "2340769", title: "大小姐", artist: "关楚耀", album: "/subject/2340769/",
            albumTitle: "你当我什么", picture: "https://img3.doubanio.com/lpic/s2799400.jpg",
            url: "http://mr1.doubanio.com/fe2b6cef41cd9a4acc6fff1acc06e29b/0/fm/song/p82943_128k.mp4", length: 179,
            like: false, publicTime: "2007", kbps: 128, subtype: "",
            sha256: "6e9e76e87b7ad6d01a142cc8439d3bdc87d26d33a85dad7d67cd0ca7168e4b5b")])
    }

    @Test func mobileV2PlaylistDecodesEveryField() throws {
        let playlist = try APIDecoder.playlist(
            try Fixture.data("v2fm-playlist_wangfu91-DoubanFM_SampleData-playlist.json"), for: .new)
        #expect(playlist.versionMax == 100)
        #expect(playlist.warning == nil)
        #expect(playlist.songs == [Song(
            sid: "966134", ssid: "f58a", aid: "1395078", title: "约定", artist: "王菲", album: "/subject/1395078/",
            albumTitle: "玩具", picture: "http://img3.douban.com/lpic/s3206295.jpg",
            url: "http://mr7.doubanio.com/69e42631b65470b51ef2bbc6a437cdd8/1/fm/song/p966134_128k.mp3", length: 265,
            kbps: 128, sha256: "14224c93173140f56df373c2c2fb28120970384cb4958c4189d265eff2f73d4a")])
    }

    @Test func appPlaylistTitlesInOrder() throws {
        let playlist = try APIDecoder.playlist(
            try Fixture.data("app-radio-people_type-n_playlist_linq-doubanfm_tests-songs.json"), for: .new)
        #expect(playlist.songs.map(\.title) == ["Free Loop", "I'm Yours", "You're Beautiful", "好久不见", "Because Of You"])
        #expect(playlist.songs.allSatisfy { !$0.like && !$0.isAdvertisement })
    }

    @Test func webLoginSuccessesDecode() throws {
        let ampm = try APIDecoder.webLogin(
            try Fixture.data("web-j-login_success_ampm-Douban-FM-sdk_TestResponses-AUTH_SUCCESS.json"))
        #expect(ampm == WebUser(id: "10000001", uid: "10000001", name: "listener", isPro: false))
        let vanity = try APIDecoder.webLogin(
            try Fixture.data("web-j-login_success_picasso250-doubanfm-crx_login.php-comment.json"))
        #expect(vanity == WebUser(id: "10000002", uid: "listener2", name: "听众", isPro: false))
    }

    @Test func webLoginFailureCarriesTheServersWords() throws {
        #expect(throws: APIError.refused(code: 1011, message: "验证码不正确")) {
            try APIDecoder.webLogin(
                try Fixture.data("web-j-login_captcha-error_ampm-Douban-FM-sdk_TestResponses-AUTH_ERROR.json"))
        }
    }

    @Test func newCaptchaIsAJSONString() throws {
        let id = try APIDecoder.captchaID(
            try Fixture.data("web-j-new_captcha_ampm-Douban-FM-sdk_TestResponses-NEW_CAPTCHA.json"))
        #expect(id == "8Z9w6tODHEukHkAmBz52dWg4:en")
    }

    @Test func mobileChannelGroupsFlattenWithoutRepeats() throws {
        let channels = try APIDecoder.channels(
            try Fixture.data("v2fm-app_channels_kfstorm-Kfstorm.DoubanFM.Core_ChannelListExample.json"))
        #expect(channels.map(\.id) == ["0", "-3", "3", "1", "22", "18", "5", "4", "61", "2", "6", "27", "17", "14",
                                       "16", "7", "8", "10", "9", "76", "78", "32"])
        #expect(channels[0] == Channel(id: "0", name: "私人", sequence: 0))
        #expect(channels[1] == Channel(id: "-3", name: "红心", sequence: 1))
        #expect(channels.last == Channel(id: "32", name: "咖啡", sequence: 21))
    }
}
