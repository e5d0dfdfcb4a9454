import Foundation
import Scrobble
import Testing

/// The two services' requests, byte for byte as their documentation asks.
struct ScrobbleRequestTests {
    private let song = PlayedSong(artist: "Cher and Sonny", title: "Believe", album: "Believe", duration: 239.6,
                                  startedAt: 1_700_000_000)

    /// Last.fm's own worked example of a signature (api_key, method, token, secret), and one
    /// with a space and an unsorted order, against md5sum(1)'s answer for the same text.
    @Test func theSignatureIsTheMD5OfTheSortedParametersAndTheSecret() {
        #expect(LastFMSignature.sign([("api_key", "xxxxxxxx"), ("method", "auth.getSession"), ("token", "xxxxxxx")],
                                     secret: "mysecret") == "68afb32bee072407a63b6c41f3e1e2b4")
        // "api_keyxxxxxxxxxxartistCher and Sonnymethodtrack.lovesksssstrackBelieveilovecher"
        #expect(LastFMSignature.sign([("track", "Believe"), ("method", "track.love"), ("format", "json"),
                                      ("artist", "Cher and Sonny"), ("callback", "f"), ("sk", "ssss"),
                                      ("api_key", "xxxxxxxxxx")], secret: "ilovecher")
                == "1b2b059d155550159fc988d3a6ea0dd8")
        #expect(LastFMSignature.md5Hex(Data()) == "d41d8cd98f00b204e9800998ecf8427e")
    }

    @Test func aListenBrainzListenIsASingleWithItsTimestampAndMetadata() throws {
        let lb = ListenBrainz(baseURL: URL(string: "http://127.0.0.1:9/")!, token: "tok-123",
                              client: ScrobbleClient(name: "mhz", version: "1.2"))
        let request = try #require(lb.request(for: [.listen(song)]))
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "http://127.0.0.1:9/1/submit-listens")
        #expect(request.headers == [.init("Authorization", "Token tok-123"), .init("Content-Type", "application/json")])
        #expect(String(decoding: try #require(request.body), as: UTF8.self) ==
            #"{"listen_type":"single","payload":[{"listened_at":1700000000,"track_metadata":{"additional_info":{"duration_ms":239600,"submission_client":"mhz","submission_client_version":"1.2"},"artist_name":"Cher and Sonny","release_name":"Believe","track_name":"Believe"}}]}"#)
        let now = lb.nowPlaying(PlayedSong(artist: "A", title: "T", duration: 0, startedAt: 5))
        #expect(String(decoding: try #require(now.body), as: UTF8.self) ==
            #"{"listen_type":"playing_now","payload":[{"track_metadata":{"additional_info":{"submission_client":"mhz","submission_client_version":"1.2"},"artist_name":"A","track_name":"T"}}]}"#)
        // ListenBrainz takes no likes of songs without a MusicBrainz id.
        #expect(lb.request(for: [.love(song)]) == nil)
        #expect(lb.validateToken().url.absoluteString == "http://127.0.0.1:9/1/validate-token")
    }

    @Test func aLengthNoSongHasIsLeftOutNotACrash() throws {
        // A station's `"length": 9223372036854775807`, or an unending stream's duration.
        for duration in [9.223_372_036_854_775_807e18, 1e300, .infinity, .nan, -3] {
            let song = PlayedSong(artist: "A", title: "T", duration: duration, startedAt: 5)
            #expect(song.duration(unitsPerSecond: 1) == nil && song.duration(unitsPerSecond: 1000) == nil, "\(duration)")
            let lb = ListenBrainz(token: "t", client: ScrobbleClient(name: "mhz", version: "1"))
            let body = String(decoding: try #require(lb.request(for: [.listen(song)])?.body), as: UTF8.self)
            #expect(!body.contains("duration_ms"), "\(body)")
            let fm = LastFM(apiKey: "k", secret: "s", sessionKey: "x")
            for request in [fm.nowPlaying(song), try #require(fm.request(for: [.listen(song)]))] {
                #expect(!String(decoding: try #require(request.body), as: UTF8.self).contains("duration"))
            }
        }
        #expect(PlayedSong(artist: "A", title: "T", duration: 239.6, startedAt: 5).duration(unitsPerSecond: 1) == 240)
    }

    @Test func listenBrainzAnswersAreSortedIntoTakenRefusedAndNotNow() throws {
        let lb = ListenBrainz(token: "t", client: ScrobbleClient(name: "mhz", version: "1"))
        try lb.check(ScrobbleReply(status: 200, body: Data(#"{"status":"ok"}"#.utf8)))
        #expect(throws: ScrobbleFailure.credentials(status: 401, message: "Invalid authorization token.")) {
            try lb.check(ScrobbleReply(status: 401, body: Data(#"{"code":401,"error":"Invalid authorization token."}"#.utf8)))
        }
        #expect(throws: ScrobbleFailure.refused(status: 400, message: "bad")) {
            try lb.check(ScrobbleReply(status: 400, body: Data(#"{"code":400,"error":"bad"}"#.utf8)))
        }
        #expect(throws: ScrobbleFailure.busy(status: 503, message: "")) { try lb.check(ScrobbleReply(status: 503, body: Data())) }
        #expect(try ListenBrainz.validatedUser(ScrobbleReply(status: 200, body: Data(#"{"valid":true,"user_name":"rob"}"#.utf8))) == "rob")
        #expect(try ListenBrainz.validatedUser(ScrobbleReply(status: 401, body: Data(#"{"valid":false}"#.utf8))) == nil)
    }

    @Test func aLastFMScrobbleIsASignedIndexedFormChosenByTheRadio() throws {
        let fm = LastFM(url: URL(string: "http://127.0.0.1:9/2.0/")!, apiKey: "key", secret: "sec", sessionKey: "sk1")
        let second = PlayedSong(artist: "B&B", title: "Two", duration: 0, startedAt: 1_700_000_300)
        let request = try #require(fm.request(for: [.listen(song), .listen(second)]))
        #expect(request.method == "POST" && request.url.absoluteString == "http://127.0.0.1:9/2.0/")
        let signed: [(name: String, value: String)] = [
            ("method", "track.scrobble"), ("artist[0]", "Cher and Sonny"), ("track[0]", "Believe"),
            ("timestamp[0]", "1700000000"), ("album[0]", "Believe"), ("duration[0]", "240"), ("chosenByUser[0]", "0"),
            ("artist[1]", "B&B"), ("track[1]", "Two"), ("timestamp[1]", "1700000300"), ("chosenByUser[1]", "0"),
            ("api_key", "key"), ("sk", "sk1")]
        let signature = LastFMSignature.sign(signed, secret: "sec")
        #expect(String(decoding: try #require(request.body), as: UTF8.self) ==
            "method=track.scrobble&artist%5B0%5D=Cher%20and%20Sonny&track%5B0%5D=Believe&timestamp%5B0%5D=1700000000"
            + "&album%5B0%5D=Believe&duration%5B0%5D=240&chosenByUser%5B0%5D=0&artist%5B1%5D=B%26B&track%5B1%5D=Two"
            + "&timestamp%5B1%5D=1700000300&chosenByUser%5B1%5D=0&api_key=key&sk=sk1&api_sig=\(signature)&format=json")
        #expect(fm.batchSize(of: "listen") == 50 && fm.batchSize(of: "love") == 1)
        let love = String(decoding: try #require(fm.request(for: [.unlove(song)])?.body), as: UTF8.self)
        #expect(love.hasPrefix("method=track.unlove&artist=Cher%20and%20Sonny&track=Believe&api_key=key&sk=sk1&api_sig="))
        #expect(fm.authorisationURL(token: "t0k").absoluteString == "https://www.last.fm/api/auth/?api_key=key&token=t0k")
        let getToken = String(decoding: try #require(fm.getToken().body), as: UTF8.self)
        #expect(getToken == "method=auth.getToken&api_key=key&api_sig="
            + LastFMSignature.sign([("method", "auth.getToken"), ("api_key", "key")], secret: "sec") + "&format=json")
    }

    @Test func lastFMErrorCodesAreSortedIntoTakenRefusedAndNotNow() throws {
        let fm = LastFM(apiKey: "k", secret: "s", sessionKey: "x")
        try fm.check(ScrobbleReply(status: 200, body: Data(#"{"scrobbles":{"@attr":{"accepted":1,"ignored":0}}}"#.utf8)))
        #expect(throws: ScrobbleFailure.credentials(status: 403, message: "error 9: Invalid session key")) {
            try fm.check(ScrobbleReply(status: 403, body: Data(#"{"error":9,"message":"Invalid session key"}"#.utf8)))
        }
        #expect(throws: ScrobbleFailure.busy(status: 200, message: "error 29: Rate limit")) {
            try fm.check(ScrobbleReply(status: 200, body: Data(#"{"error":29,"message":"Rate limit"}"#.utf8)))
        }
        #expect(throws: ScrobbleFailure.refused(status: 400, message: "error 6: Invalid parameters")) {
            try fm.check(ScrobbleReply(status: 400, body: Data(#"{"error":6,"message":"Invalid parameters"}"#.utf8)))
        }
        #expect(throws: ScrobbleFailure.badAnswer("Last.fm's answer is not JSON")) {
            try fm.check(ScrobbleReply(status: 200, body: Data("<html>".utf8)))
        }
        let session = try fm.session(ScrobbleReply(status: 200, body: Data(#"{"session":{"name":"rj","key":"d580d57f","subscriber":0}}"#.utf8)))
        #expect(session.name == "rj" && session.key == "d580d57f")
    }

    /// A status with nothing more to go on is "not now" exactly as `Backoff`'s one rule
    /// says a status may pass: 408 (the service timed out waiting for the request, which it
    /// never took) keeps the scrobble like 429 and 5xx; another 4xx drops it.
    @Test func aStatusAloneIsSortedByTheOneRule() throws {
        let lb = ListenBrainz(token: "t", client: ScrobbleClient(name: "mhz", version: "1"))
        let fm = LastFM(apiKey: "k", secret: "s", sessionKey: "x")
        for status in [408, 429, 500, 502, 503, 504, 599] {
            #expect(throws: ScrobbleFailure.busy(status: status, message: "")) { try lb.check(ScrobbleReply(status: status, body: Data())) }
            #expect(throws: ScrobbleFailure.busy(status: status, message: "")) { try fm.check(ScrobbleReply(status: status, body: Data())) }
            #expect(throws: ScrobbleFailure.busy(status: status, message: "")) {
                try ListenBrainz.validatedUser(ScrobbleReply(status: status, body: Data()))
            }
        }
        for status in [404, 409, 410, 413] {
            #expect(throws: ScrobbleFailure.refused(status: status, message: "")) { try lb.check(ScrobbleReply(status: status, body: Data())) }
            #expect(throws: ScrobbleFailure.refused(status: status, message: "")) { try fm.check(ScrobbleReply(status: status, body: Data())) }
        }
        #expect(ScrobbleFailure.busy(status: 408, message: "").keepsScrobble)
    }
}
