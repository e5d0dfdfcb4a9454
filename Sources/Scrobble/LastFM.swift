import Foundation

/// Last.fm's 2.0 web service as mhz uses it (last.fm/api): `track.updateNowPlaying` when
/// a song starts, `track.scrobble` (at most 50 at once, indexed `artist[i]`…, with
/// `chosenByUser=0`: a radio chose the song) once it counts, `track.love`/`track.unlove`
/// for likes, and the desktop authorisation (`auth.getToken`, the listener's approval in a
/// browser, `auth.getSession`). Every call is a signed `POST` with `format=json`.
public struct LastFM: ScrobbleEndpoint {
    /// The service's root, `https://ws.audioscrobbler.com/2.0/` by default.
    public var url: URL
    /// The API key.
    public var apiKey: String
    /// The shared secret (signs; never sent).
    public var secret: String
    /// The session key of the listener's account, once authorised.
    public var sessionKey: String

    /// The public service.
    public static let defaultURL = URL(string: "https://ws.audioscrobbler.com/2.0/")!
    /// Where the listener approves a token.
    public static let authorisationPage = "https://www.last.fm/api/auth/"
    /// The most scrobbles one `track.scrobble` may carry.
    public static let batchLimit = 50

    /// Creates the endpoint.
    public init(url: URL = LastFM.defaultURL, apiKey: String, secret: String, sessionKey: String = "") {
        self.url = url
        self.apiKey = apiKey
        self.secret = secret
        self.sessionKey = sessionKey
    }

    /// ``ScrobbleService/lastFM``.
    public var service: ScrobbleService { .lastFM }

    /// Listens go 50 at a time; likes one at a time.
    public func batchSize(of kind: String) -> Int { kind == "listen" ? Self.batchLimit : 1 }

    /// `track.updateNowPlaying`.
    public func nowPlaying(_ song: PlayedSong) -> ScrobbleRequest {
        var parameters = [("artist", song.artist), ("track", song.title)]
        if !song.album.isEmpty { parameters.append(("album", song.album)) }
        if let seconds = song.duration(unitsPerSecond: 1) { parameters.append(("duration", String(seconds))) }
        return call("track.updateNowPlaying", parameters)
    }

    /// `track.scrobble` for listens (indexed from 0), `track.love`/`track.unlove` for one like.
    public func request(for actions: [ScrobbleAction]) -> ScrobbleRequest? {
        guard let first = actions.first else { return nil }
        switch first {
        case .love(let song), .unlove(let song):
            return call(first.kind == "love" ? "track.love" : "track.unlove",
                        [("artist", song.artist), ("track", song.title)])
        case .listen:
            var parameters: [(String, String)] = []
            for (index, action) in actions.prefix(Self.batchLimit).enumerated() {
                guard case .listen(let song) = action else { continue }
                parameters += [("artist[\(index)]", song.artist), ("track[\(index)]", song.title),
                               ("timestamp[\(index)]", String(song.startedAt))]
                if !song.album.isEmpty { parameters.append(("album[\(index)]", song.album)) }
                if let seconds = song.duration(unitsPerSecond: 1) { parameters.append(("duration[\(index)]", String(seconds))) }
                parameters.append(("chosenByUser[\(index)]", "0"))
            }
            return call("track.scrobble", parameters)
        }
    }

    /// `auth.getToken`: a token for the listener to approve.
    public func getToken() -> ScrobbleRequest { call("auth.getToken", [], session: false) }

    /// The page where the listener approves `token`.
    public func authorisationURL(token: String) -> URL {
        URL(string: Self.authorisationPage + "?api_key=" + Self.escape(apiKey) + "&token=" + Self.escape(token))!
    }

    /// `auth.getSession` for an approved token.
    public func getSession(token: String) -> ScrobbleRequest {
        call("auth.getSession", [("token", token)], session: false)
    }

    /// What an answer means: a body with `error` is Last.fm's error code (also under a
    /// 200); without one, a status that may pass (408, 429, 5xx) is not now, another refused.
    public func check(_ reply: ScrobbleReply) throws(ScrobbleFailure) {
        let object = try? JSONSerialization.jsonObject(with: reply.body) as? [String: Any]
        if let code = (object?["error"] as? NSNumber)?.intValue {
            let message = object?["message"] as? String ?? ""
            throw Self.failure(code: code, status: reply.status, message: message)
        }
        switch reply.status {
        case 200..<300:
            guard object != nil else { throw .badAnswer("Last.fm's answer is not JSON") }
        default: throw ScrobbleFailure(status: reply.status, message: "")
        }
    }

    /// The token of an `auth.getToken` answer.
    public func token(_ reply: ScrobbleReply) throws(ScrobbleFailure) -> String {
        try check(reply)
        let object = try? JSONSerialization.jsonObject(with: reply.body) as? [String: Any]
        guard let token = object?["token"] as? String, !token.isEmpty else {
            throw .badAnswer("Last.fm's answer to auth.getToken holds no token")
        }
        return token
    }

    /// The listener's name and session key of an `auth.getSession` answer.
    public func session(_ reply: ScrobbleReply) throws(ScrobbleFailure) -> (name: String, key: String) {
        try check(reply)
        let object = try? JSONSerialization.jsonObject(with: reply.body) as? [String: Any]
        guard let session = object?["session"] as? [String: Any], let key = session["key"] as? String, !key.isEmpty else {
            throw .badAnswer("Last.fm's answer to auth.getSession holds no session key")
        }
        return (session["name"] as? String ?? "", key)
    }

    /// Last.fm's error codes (last.fm/api/errorcodes) in the courier's terms.
    static func failure(code: Int, status: Int, message: String) -> ScrobbleFailure {
        let words = "error \(code)" + (message.isEmpty ? "" : ": \(message)")
        switch code {
        // Operation failed, service offline, temporarily unavailable, rate limit exceeded.
        case 8, 11, 16, 29: return .busy(status: status, message: words)
        // Authentication failed, invalid session key, invalid API key, invalid signature,
        // token not authorised, token expired, suspended API key.
        case 4, 9, 10, 13, 14, 15, 26: return .credentials(status: status, message: words)
        default: return .refused(status: status, message: words)
        }
    }

    /// A signed call: `method`, the parameters, `api_key`, `sk` when `session`, `api_sig`,
    /// then `format=json` (unsigned), as a form body.
    private func call(_ method: String, _ parameters: [(String, String)], session: Bool = true) -> ScrobbleRequest {
        var signed: [(name: String, value: String)] = [(name: "method", value: method)]
        for (name, value) in parameters { signed.append((name: name, value: value)) }
        signed.append(("api_key", apiKey))
        if session { signed.append(("sk", sessionKey)) }
        let all = signed + [(name: "api_sig", value: LastFMSignature.sign(signed, secret: secret)), (name: "format", value: "json")]
        let body = all.map { Self.escape($0.name) + "=" + Self.escape($0.value) }.joined(separator: "&")
        return ScrobbleRequest(method: "POST", url: url,
                               headers: [.init("Content-Type", "application/x-www-form-urlencoded")],
                               body: Data(body.utf8), label: method)
    }

    /// Percent-encoding of a form value: everything but RFC 3986's unreserved characters.
    static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (byte < 16 ? "0" : "") + hex
            }
        }
        return out
    }
}
