import Foundation

/// Turns answer bodies into models or typed errors. Pure; fed recorded responses in tests.
///
/// Everything a real server (or a proxy in front of it) has been seen to send is handled:
/// a UTF-8 BOM, an HTML error page instead of JSON, a bare `"ok"` for `e`, in-band errors
/// with HTTP 200, and the type variants of ``Song``.
public enum APIDecoder {
    /// Decodes the answer to a playlist request of the given type.
    ///
    /// - Returns: the playlist; for a short report acknowledged with `"ok"` or `{"r":0}`, an
    ///   empty playlist.
    /// - Throws: ``APIError``: `.expired` when the token is refused, `.server` for any
    ///   other in-band error, or a description of what is wrong with the bytes.
    public static func playlist(_ body: Data, for type: ReportType) throws(APIError) -> SongList {
        let json = try jsonBytes(body)
        // `e` is acknowledged with the JSON string "ok" (ginuerzh/gofm) or "OK" (the 2010 web player write-up).
        if let text = try? JSONDecoder().decode(String.self, from: json) {
            if text.lowercased() == "ok" { return SongList(songs: []) }
            throw .malformed("expected a playlist object, got the string \"\(text.prefix(40))\"")
        }
        let playlist: SongList = try decode(SongList.self, from: json)
        if playlist.status != 0 {
            let word = playlist.error ?? "unknown_error"
            throw word == "expired" ? .expired : .server(word)
        }
        return playlist
    }

    /// Decodes a channel list: the app API's `{"channels":[…]}` or the mobile v2
    /// API's `{"groups":[{"chls":[…]}]}` (docs/PROTOCOL.md §6.1).
    public static func channels(_ body: Data) throws(APIError) -> [Channel] {
        let json = try jsonBytes(body)
        if let shape = try? JSONDecoder().decode(ChannelListShape.self, from: json), !shape.hasChannels, shape.hasGroups {
            return try decode(ChannelGroups.self, from: json).channels
        }
        return try decode(ChannelList.self, from: json).channels
    }

    /// Decodes an app login answer.
    ///
    /// - Throws: ``APIError/server(_:)`` with the error word (`wrong_password`,
    ///   `invalidate_email`, …) when the login was refused.
    public static func appLogin(_ body: Data) throws(APIError) -> AppCredentials {
        let json = try jsonBytes(body)
        let answer = try decode(AppLoginAnswer.self, from: json)
        guard answer.status == 0, let userID = answer.userID, let token = answer.token, let expire = answer.expire
        else { throw .server(answer.error ?? "unknown_error") }
        return AppCredentials(userID: userID, token: token, expire: expire, userName: answer.userName ?? "",
                              email: answer.email ?? "")
    }

    /// Decodes a page of `/j/app/radio/liked_songs`: `{"r":0,"songs":[…]}` (`r` may be
    /// missing, as in the answers clients recorded from Douban).
    ///
    /// - Throws: ``APIError``: `.expired` for a dead token, `.server("need_login")` for an
    ///   anonymous request, `.notJSON` for a web page (a station without the route).
    public static func likedSongs(_ body: Data) throws(APIError) -> [Song] {
        let json = try jsonBytes(body)
        let answer = try decode(LikedSongsAnswer.self, from: json)
        if answer.status != 0 {
            let word = answer.error ?? "unknown_error"
            throw word == "expired" ? .expired : .server(word)
        }
        return answer.songs
    }

    /// Decodes any JSON answer of a station into `type` by the same rules as the Douban
    /// answers above: the envelope checked first (an HTML page is named as such), then a
    /// field at fault named by its path (`.songs[0].start`), never Foundation's own text.
    public static func answer<T: Decodable>(_ type: T.Type, from body: Data) throws(APIError) -> T {
        try decode(type, from: jsonBytes(body))
    }

    /// Checks the envelope before JSON decoding: not empty, valid UTF-8, BOM removed, and
    /// starting like JSON (so an HTML page is named as such rather than as a parse error).
    static func jsonBytes(_ body: Data) throws(APIError) -> Data {
        var bytes = body
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let text = String(data: bytes, encoding: .utf8) else { throw .invalidEncoding }
        let trimmed = text.drop { $0.isWhitespace }
        guard let first = trimmed.first else { throw .emptyBody }
        guard first == "{" || first == "[" || first == "\"" else {
            let printable = trimmed.prefix(60).map { $0.isNewline ? " " : $0 }
            throw .notJSON(prefix: String(printable))
        }
        return Data(bytes)
    }

    /// Decodes checked JSON into `type`, turning Foundation's `DecodingError` into
    /// ``APIError/malformed(_:)`` with the path of the offending field (`.song[0].like`),
    /// so the one-line message says where the answer went wrong, not just that it did.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(APIError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw .malformed(describe(error))
        } catch {
            throw .malformed("\(error)")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ ctx: DecodingError.Context) -> String {
            let p = ctx.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return p.isEmpty ? "top level" : p
        }
        switch error {
        case .dataCorrupted(let ctx): return "invalid JSON at \(path(ctx))"
        case .keyNotFound(let key, let ctx): return "missing \"\(key.stringValue)\" at \(path(ctx))"
        case .typeMismatch(_, let ctx): return "wrong type at \(path(ctx)): \(ctx.debugDescription)"
        case .valueNotFound(_, let ctx): return "null at \(path(ctx))"
        @unknown default: return "\(error)"
        }
    }
}

/// The app login answer (docs/PROTOCOL.md §5.1): all values are strings except `r`.
private struct AppLoginAnswer: Decodable {
    /// `r`: 0 for a login, 1 for a refusal.
    var status: Int
    /// `err`: the refusal's word (`wrong_password`, `invalidate_email`, …).
    var error: String?
    /// `user_id`: the account id the playlist query carries.
    var userID: String?
    /// `token`: the session token the playlist query carries (a secret).
    var token: String?
    /// `expire`: when the token lapses, Unix seconds as text.
    var expire: String?
    /// `user_name`: the display name.
    var userName: String?
    /// `email`: the account's address.
    var email: String?

    /// The wire names.
    enum CodingKeys: String, CodingKey {
        case status = "r", error = "err", userID = "user_id", token, expire, userName = "user_name", email
    }

    /// Reads every field leniently: servers send numbers as strings and the reverse
    /// (docs/PROTOCOL.md §5.1).
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        status = try c.lenientInt(.status) ?? 0
        error = try c.lenientString(.error)
        userID = try c.lenientString(.userID)
        token = try c.lenientString(.token)
        expire = try c.lenientString(.expire)
        userName = try c.lenientString(.userName)
        email = try c.lenientString(.email)
    }
}

/// The answer of `/j/app/radio/liked_songs`: its status, error word and songs.
private struct LikedSongsAnswer: Decodable {
    /// `r`: 0, or absent, for a page.
    var status: Int
    /// `err`: the refusal's word (`need_login`, `expired`).
    var error: String?
    /// `songs`: the page, newest like first.
    var songs: [Song]

    /// The wire names.
    enum CodingKeys: String, CodingKey { case status = "r", error = "err", songs }

    /// `r` leniently, as everywhere; a refusal carries no `songs`.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        status = try c.lenientInt(.status) ?? 0
        error = try c.lenientString(.error)
        songs = try c.decodeIfPresent([Song].self, forKey: .songs) ?? []
    }
}

/// Which of the two channel-list shapes an answer has, by its top-level keys alone.
private struct ChannelListShape: Decodable {
    /// The app API's `channels` key is there.
    let hasChannels: Bool
    /// The mobile v2 API's `groups` key is there.
    let hasGroups: Bool

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        hasChannels = container.contains(Key(stringValue: "channels"))
        hasGroups = container.contains(Key(stringValue: "groups"))
    }
}
