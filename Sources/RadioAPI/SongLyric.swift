import Foundation

/// The answer of Douban's lyric call (`POST /v2/fm/lyric`, docs/PROTOCOL.md §10):
/// `{"lyric": "<LRC text>", "name": "<title>", "sid": "<sid>"}`. A song without lyrics has
/// an empty ``lyric``.
public struct SongLyric: Sendable, Equatable, Codable {
    /// The lyrics as text: LRC (`[mm:ss.xx]line`) when synchronized, plain lines when not;
    /// empty when the song has none.
    public var lyric: String
    /// The song's title.
    public var name: String
    /// The song id asked for.
    public var sid: String

    /// Creates an answer.
    public init(lyric: String, name: String, sid: String) {
        self.lyric = lyric
        self.name = name
        self.sid = sid
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // Lenient as the playlist decoding is: a field left out reads as empty.
        lyric = try container.lenientString(.lyric) ?? ""
        name = try container.lenientString(.name) ?? ""
        sid = try container.lenientString(.sid) ?? ""
    }
}

/// Builds the lyric request: `POST <base>/v2/fm/lyric` with the form `sid=…&ssid=…`
/// (taizilongxu/douban.fm `doubanfm/API/api.py`; zonyitoo/doubanfm-qt issue 40). Douban
/// served it from `api.douban.com`; mhz asks the station it plays from.
public struct LyricEndpoint: Sendable, Equatable {
    /// The server root.
    public var baseURL: URL

    /// Creates the endpoint for a server.
    public init(baseURL: URL) {
        self.baseURL = baseURL
    }

    /// The request for one song's lyrics.
    public func lyric(sid: String, ssid: String) -> APIRequest {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let body = FormEncoding.encode([("sid", sid), ("ssid", ssid)])
        // A constant path after a URL's own text always reads (else the server's root).
        return APIRequest(method: .post, url: URL(string: base + "/v2/fm/lyric") ?? baseURL,
                          headers: [.init("Content-Type", "application/x-www-form-urlencoded")], body: Data(body.utf8))
    }
}

extension APIDecoder {
    /// Decodes a lyric answer.
    ///
    /// - Throws: ``APIError``: `.refused(code:message:)` for Douban's v2 error envelope
    ///   (`{"code": 1998, "msg": "rate_limit_exceeded2: …"}`, its rate limit); `.notJSON`
    ///   for a page (a station without the route).
    public static func lyric(_ body: Data) throws(APIError) -> SongLyric {
        let json = try jsonBytes(body)
        let envelope = try decode(LyricEnvelope.self, from: json)
        if let code = envelope.code { throw .refused(code: code, message: envelope.msg ?? "") }
        return try decode(SongLyric.self, from: json)
    }
}

/// Douban's v2 error fields, present only on a refusal.
private struct LyricEnvelope: Decodable {
    var code: Int?
    var msg: String?
}
