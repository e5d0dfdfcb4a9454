import Foundation
import Testing
@testable import RadioAPI

/// The envelope and login variants the web family (and a dropped session) produce.
struct WebDecodingTests {
    func playlist(_ json: String, _ type: ReportType = .new) throws -> SongList {
        try APIDecoder.playlist(Data(json.utf8), for: type)
    }

    @Test func sessionFlagsInEveryTypeTheyCameIn() throws {
        #expect(try playlist(#"{"r":0,"logout":1,"song":[]}"#).loggedOut)
        #expect(try playlist(#"{"r":"0","logout":"1"}"#).loggedOut)
        #expect(try playlist(#"{"r":false,"logout":true,"song":[]}"#).loggedOut)
        #expect(try playlist(#"{"r":0,"warning":"user_is_ananymous","song":[]}"#).isAnonymous)
        #expect(try playlist(#"{"r":0,"warning":"user_is_anonymous","song":[]}"#).isAnonymous)
        #expect(try playlist(#"{"r":0,"warning":"something_else","song":[]}"#).isAnonymous == false)
    }

    @Test func inBandErrorsOfBothFamilies() {
        #expect(throws: APIError.expired) { try playlist(#"{"r":1,"err":"expired"}"#, .skip) }
        #expect(throws: APIError.server("missing_sid")) { try playlist(#"{"r":"1","err":"missing_sid"}"#, .skip) }
        #expect(throws: APIError.server("rate limited")) { try playlist(#"{"r":1,"err_msg":"rate limited"}"#) }
        #expect(throws: APIError.server("unknown_error")) { try playlist(#"{"r":1}"#) }
    }

    @Test func adsAreMarkedAndLikeTakesEveryForm() throws {
        let list = try playlist(#"{"r":0,"song":[{"sid":"da60222_43","url":"u","subtype":"T","like":"0","adtype":3},{"sid":"1","url":"u","like":true},{"sid":"2","url":"u","like":"1"},{"sid":"3","url":"u","like":1}]}"#)
        #expect(list.songs.map(\.isAdvertisement) == [true, false, false, false])
        #expect(list.songs.map(\.like) == [false, true, true, true])
    }

    @Test func wrongTypesAreNamedWithTheirPath() {
        #expect(throws: APIError.malformed("wrong type at .song[0].length: expected an integer")) {
            try playlist(#"{"r":0,"song":[{"sid":"1","url":"u","length":{"s":1}}]}"#)
        }
        #expect(throws: APIError.malformed("expected a playlist object, got the string \"busy\"")) {
            try playlist(#""busy""#, .end)
        }
    }

    @Test func webLoginVariants() {
        #expect(throws: APIError.refused(code: 1012, message: "帐号和密码不匹配")) {
            try APIDecoder.webLogin(Data(#"{"err_no":1012,"r":1,"err_msg":"帐号和密码不匹配"}"#.utf8))
        }
        #expect(throws: APIError.refused(code: nil, message: "请输入密码")) {
            try APIDecoder.webLogin(Data(#"{"r":1,"err_msg":"请输入密码"}"#.utf8))
        }
        #expect(throws: APIError.server("wrong_password")) {
            try APIDecoder.webLogin(Data(#"{"r":1,"err":"wrong_password"}"#.utf8))
        }
        #expect(throws: APIError.malformed("login succeeded but user_info is missing")) {
            try APIDecoder.webLogin(Data(#"{"r":0}"#.utf8))
        }
        #expect(throws: APIError.notJSON(prefix: "<!DOCTYPE html><title>登录</title>")) {
            try APIDecoder.webLogin(Data("<!DOCTYPE html><title>登录</title>".utf8))
        }
    }

    @Test func captchaIDMustBeANonEmptyString() {
        #expect(throws: APIError.malformed("expected the captcha id as a JSON string")) {
            try APIDecoder.captchaID(Data(#"{"id":"x"}"#.utf8))
        }
        #expect(throws: APIError.malformed("empty captcha id")) { try APIDecoder.captchaID(Data(#"" ""#.utf8)) }
        #expect(throws: APIError.emptyBody) { try APIDecoder.captchaID(Data()) }
    }

    @Test func channelListOfTheAppShapeStillDecodes() throws {
        let channels = try APIDecoder.channels(Data(#"{"channels":[{"channel_id":"1","name":"华语"}],"groups":[]}"#.utf8))
        #expect(channels == [Channel(id: "1", name: "华语")])
        #expect(throws: APIError.malformed("missing \"channels\" at top level")) {
            try APIDecoder.channels(Data(#"{"chls":[]}"#.utf8))
        }
    }

    /// Inputs `script/fuzz api` found crashing the decoders, kept in `Fixtures/fuzz`: a web
    /// login refusal whose `err_no` is past `Int`'s range. It read as a float, and the float
    /// was converted to `Int` with a trap; every lenient integer (`r`, `length`, `kbps`,
    /// `seq_id`) went the same way.
    @Test func integersPastIntAreMalformedNotTrapped() throws {
        let found = try Fixture.data("fuzz/web-login-err-no-past-int64.json")
        #expect(throws: APIError.malformed("wrong type at .err_no: expected an integer")) { try APIDecoder.webLogin(found) }
        for (json, path) in [(#"{"r":1e300}"#, ".r"), (#"{"r":"-9.3e18"}"#, ".r"),
                             (#"{"song":[{"sid":"1","url":"u","length":9223372036854775808}]}"#, ".song[0].length"),
                             (#"{"song":[{"sid":"1","url":"u","kbps":"1e19"}]}"#, ".song[0].kbps")] {
            #expect(throws: APIError.malformed("wrong type at \(path): expected an integer"), "\(json)") { try playlist(json) }
        }
        #expect(throws: APIError.malformed("wrong type at .channels[0].seq_id: expected an integer")) {
            try APIDecoder.channels(Data(#"{"channels":[{"channel_id":1,"seq_id":-1e19}]}"#.utf8))
        }
        // The largest floats that are integers still read.
        #expect(try playlist(#"{"song":[{"sid":"1","url":"u","length":9.2e18}]}"#).songs.first?.length == 9_200_000_000_000_000_000)
    }
}
