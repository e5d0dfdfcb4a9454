import Foundation

/// Builds the requests of the web API family against one server: the v2 playlist, the
/// captcha login and the logout (docs/PROTOCOL.md §3.3, §5.2, §8). Pure: the cookies
/// that identify the listener are the HTTP layer's business, not part of these requests.
public struct WebEndpoints: Sendable, Equatable {
    /// The server root, e.g. `https://douban.fm`.
    public var baseURL: URL
    /// `app_name=`: `radio_website` (taizilongxu/douban.fm, chengzeyi/FM, xwartz/doubanfm-sdk).
    public var appName: String
    /// `client=`: `s:mainsite|y:3.0` (taizilongxu/douban.fm, chengzeyi/FM).
    public var client: String
    /// `version=`: 100 (taizilongxu/douban.fm, chengzeyi/FM).
    public var version: String
    /// `kbps=` and `pb=` (the bitrate asked for and the one played): 64 for accounts that
    /// are not Pro, whatever is asked (HakurouKen/douban.fm-api); chengzeyi/FM asks for 128.
    public var kbps: Int
    /// `from=`: `mainsite`, as douban.fm's own player sends it (ginuerzh/gofm).
    public var from: String
    /// Whether lists ask for `format=original`: mhz's own parameter, with which mhz's
    /// station links each song's file as it is instead of an MP3 transcode
    /// (docs/PROTOCOL.md §9). Douban knows no such parameter and ignores it; `kbps` and `pb`
    /// are sent all the same, as the family's requests always carry them.
    public var asksForOriginal: Bool
    /// `variety=` on playlist requests (see ``AppEndpoints/variety``); omitted when `nil`.
    public var variety: Double?

    /// Creates the endpoint set for a server.
    public init(baseURL: URL, appName: String = "radio_website", client: String = "s:mainsite|y:3.0",
                version: String = "100", kbps: Int = 128, from: String = "mainsite", asksForOriginal: Bool = false) {
        self.baseURL = baseURL
        self.appName = appName
        self.client = client
        self.version = version
        self.kbps = kbps
        self.from = from
        self.asksForOriginal = asksForOriginal
    }

    /// The channel list. The web family has no documented list of its own in the app's
    /// shape; douban.fm served the app API's `/j/app/radio/channels` too
    /// (JacksonTian/douban.fm.node; docs/PROTOCOL.md §1.1).
    public func channels() -> APIRequest {
        APIRequest(method: .get, url: url("/j/app/radio/channels", query: []), headers: ajaxHeaders)
    }

    /// `GET /j/v2/playlist`: a fetch or a report. The fixed part is in chengzeyi/FM's order
    /// (`channel kbps client app_name version type`), then `sid` (omitted for `n`, as taizilongxu/douban.fm
    /// does), `pt`, `pb`, `from` and `h` for long reports; then mhz's `format` when asked
    /// and `variety` when set.
    public func playlist(_ report: Report) -> APIRequest {
        var q: [(String, String)] = [("channel", report.channel), ("kbps", String(kbps)), ("client", client),
                                     ("app_name", appName), ("version", version), ("type", report.type.rawValue)]
        if let sid = report.sid { q.append(("sid", sid)) }
        q.append(("pt", String(format: "%.1f", max(0, report.playedTime ?? 0))))
        q.append(("pb", String(kbps)))
        q.append(("from", from))
        if let history = report.history { q.append(("h", ReportHistory.wireForm(history))) }
        if asksForOriginal { q.append(("format", "original")) }
        if let variety { q.append(("variety", AppEndpoints.varietyText(variety))) }
        return APIRequest(method: .get, url: url("/j/v2/playlist", query: q), headers: ajaxHeaders,
                          isFeedback: report.type.isFeedback)
    }

    /// `GET /j/new_captcha`: the answer is a JSON string, the captcha id; it also sets the
    /// `bid` cookie the login needs.
    public func newCaptcha() -> APIRequest {
        APIRequest(method: .get, url: url("/j/new_captcha", query: []), headers: ajaxHeaders)
    }

    /// `GET /misc/captcha?size=m&id=…`: the captcha image (JPEG). Sizes: `s` 250×40,
    /// `m` 220×40, `l` 400×60 (HakurouKen/douban.fm-api); most clients use `m`.
    public func captchaImage(id: String, size: String = "m") -> APIRequest {
        APIRequest(method: .get, url: url("/misc/captcha", query: [("size", size), ("id", id)]),
                   headers: [.init("Referer", referer)])
    }

    /// `POST /j/login`, form-encoded in HakurouKen/douban.fm-api's field order. Never retried, never logged.
    ///
    /// - Parameters:
    ///   - alias: the e-mail address or user name.
    ///   - captchaID: the id `/j/new_captcha` returned.
    ///   - captchaSolution: what the listener read in the image.
    public func login(alias: String, password: String, captchaID: String, captchaSolution: String) -> APIRequest {
        let body = FormEncoding.encode([
            ("source", "radio"), ("alias", alias), ("form_password", password),
            ("captcha_solution", captchaSolution), ("captcha_id", captchaID), ("remember", "on"),
            ("task", "sync_channel_list"),
        ])
        // Origin on the login POST: zhendi/DoubanFM-CLI and picasso250/doubanfm-crx send it.
        let headers = ajaxHeaders + [.init("Origin", origin), .init("Content-Type", "application/x-www-form-urlencoded")]
        return APIRequest(method: .post, url: url("/j/login", query: []), headers: headers, body: Data(body.utf8),
                          isLogin: true)
    }

    /// `GET /partner/logout?source=radio&ck=…&no_login=y`; the answer has no body worth
    /// reading. `ck` is the value of the `ck` cookie.
    public func logout(ck: String) -> APIRequest {
        APIRequest(method: .get, url: url("/partner/logout", query: [("source", "radio"), ("ck", ck), ("no_login", "y")]),
                   headers: [.init("Referer", referer)])
    }

    /// The browser-like headers web clients send (docs/PROTOCOL.md §8; whether the server enforces them is
    /// not established, so they are sent as recommended).
    var ajaxHeaders: [APIRequest.Header] {
        [.init("Accept", "application/json, text/javascript, */*; q=0.01"), .init("Referer", referer),
         .init("X-Requested-With", "XMLHttpRequest")]
    }

    private var root: String {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }

    private var referer: String { root + "/" }

    private var origin: String { root }

    private func url(_ path: String, query: [(String, String)]) -> URL {
        let q = query.isEmpty ? "" : "?" + FormEncoding.encode(query)
        // As AppEndpoints' requests: always read, else the server's root.
        return URL(string: root + path + q) ?? baseURL
    }
}
