import Foundation

/// Builds the requests of the app API family (`/j/app/…`, docs/PROTOCOL.md §3.1, §5.1,
/// §6.1) against one server. Pure: no I/O, so every request can be asserted exactly.
public struct AppEndpoints: Sendable, Equatable {
    /// The server root, e.g. `https://www.douban.com` or the embedded station.
    public var baseURL: URL
    /// `app_name=`. `radio_desktop_win` was disabled by Douban in Nov 2015;
    /// `radio_android` kept working (zonyitoo/doubanfm-qt issue 41). The station accepts any.
    public var appName: String
    /// `version=`; 100 for every app client.
    public var version: String
    /// The logged-in listener, sent with every radio call; `nil` when anonymous.
    public var credentials: AppCredentials?
    /// `kbps=`, only honoured for Pro accounts; omitted when `nil`.
    public var kbps: Int?
    /// Whether lists ask for `format=original`: mhz's own parameter, with which mhz's
    /// station links each song's file as it is instead of an MP3 transcode
    /// (docs/PROTOCOL.md §9). Douban knows no such parameter and ignores it.
    public var asksForOriginal: Bool
    /// `variety=` on playlist requests, 0 (only what the listener loves) to 1
    /// (adventurous): mhz's own parameter, the station's variety dial (docs/PROTOCOL.md
    /// §9). Omitted when `nil`; Douban knows no such parameter and ignores it.
    public var variety: Double?

    /// Creates the endpoint set for a server.
    public init(baseURL: URL, appName: String = "radio_android", version: String = "100",
                credentials: AppCredentials? = nil, kbps: Int? = nil, asksForOriginal: Bool = false) {
        self.baseURL = baseURL
        self.appName = appName
        self.version = version
        self.credentials = credentials
        self.kbps = kbps
        self.asksForOriginal = asksForOriginal
    }

    /// `GET /j/app/radio/channels`: the channel list (no parameters).
    public func channels() -> APIRequest {
        APIRequest(method: .get, url: url("/j/app/radio/channels", query: []))
    }

    /// `GET /j/app/radio/people`: a fetch or a report, with the parameters in hzqtc/fmd's order:
    /// app_name, version, credentials, channel, type, sid, pt, h, kbps; then mhz's `format`
    /// and `variety`.
    public func playlist(_ report: Report) -> APIRequest {
        var q = identity
        q.append(("channel", report.channel))
        q.append(("type", report.type.rawValue))
        // `n` is sent with an empty sid (the Windows app's captured traffic "sid Empty"; zonyitoo/doubanfm-qt sends `sid=`).
        q.append(("sid", report.sid ?? ""))
        if let pt = report.playedTime { q.append(("pt", String(format: "%.1f", max(0, pt)))) }
        if let history = report.history { q.append(("h", ReportHistory.wireForm(history))) }
        q += quality
        if let variety { q.append(("variety", Self.varietyText(variety))) }
        return APIRequest(method: .get, url: url("/j/app/radio/people", query: q), isFeedback: report.type.isFeedback)
    }

    /// `GET /j/app/radio/liked_songs`: a page of the listener's red-heart songs, newest like
    /// first (docs/PROTOCOL.md §7, §9; honnix/douban.fm `fetch_liked_songs`; qiuxiang/doubanfm.sh
    /// asked `count=999` at once):
    /// app_name, version, credentials, `count`, `exclude` (the sids of the pages already
    /// read, `|` between them; omitted when empty), then kbps and `format` as the lists ask,
    /// since the songs' links follow them.
    public func likedSongs(count: Int, excluding sids: [String] = []) -> APIRequest {
        var q = identity
        q.append(("count", String(count)))
        if !sids.isEmpty { q.append(("exclude", sids.joined(separator: "|"))) }
        q += quality
        return APIRequest(method: .get, url: url("/j/app/radio/liked_songs", query: q))
    }

    /// `app_name`, `version` and the credentials, which every radio call begins with.
    private var identity: [(String, String)] {
        var q: [(String, String)] = [("app_name", appName), ("version", version)]
        if let credentials {
            q += [("user_id", credentials.userID), ("expire", credentials.expire), ("token", credentials.token)]
        }
        return q
    }

    /// The dial as sent: 0 to 1 in steps of a hundredth, without trailing zeros (`0.5`, `1`);
    /// a value outside is held at the nearest end, and one that is not a number is 0.
    public static func varietyText(_ variety: Double) -> String {
        let hundredths = variety.isNaN ? 0 : Int((min(max(variety, 0), 1) * 100).rounded())
        if hundredths % 100 == 0 { return String(hundredths / 100) }
        let digits = hundredths % 10 == 0 ? String(hundredths / 10) : String(format: "%02d", hundredths)
        return "0." + digits
    }

    /// `kbps` when set, then `format=original` when asked.
    private var quality: [(String, String)] {
        var q: [(String, String)] = []
        if let kbps { q.append(("kbps", String(kbps))) }
        if asksForOriginal { q.append(("format", "original")) }
        return q
    }

    /// `POST /j/app/login` with a form body. `account` containing `@` goes as `email`,
    /// anything else as `username` (kfstorm/DoubanFM `LogOnWithUsername`; a name typed into `email`
    /// gets `invalidate_email`, taizilongxu/douban.fm issue 13).
    public func login(account: String, password: String) -> APIRequest {
        let field = account.contains("@") ? "email" : "username"
        let body = FormEncoding.encode([("app_name", appName), ("version", version), (field, account),
                                        ("password", password)])
        return APIRequest(
            method: .post, url: url("/j/app/login", query: []),
            headers: [.init("Content-Type", "application/x-www-form-urlencoded")],
            body: Data(body.utf8), isLogin: true)
    }

    private func url(_ path: String, query: [(String, String)]) -> URL {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let q = query.isEmpty ? "" : "?" + FormEncoding.encode(query)
        // URL(string:) escapes what a URL may not hold, so a URL's own text, a constant path
        // and an escaped query always read as one; were one ever not to, the request goes to
        // the server's root, whose answer is refused as any wrong answer is.
        return URL(string: base + path + q) ?? baseURL
    }
}

/// What `/j/app/login` hands out and every later radio call carries (docs/PROTOCOL.md
/// §5.1). Never the password.
public struct AppCredentials: Sendable, Equatable, Codable {
    /// `user_id`.
    public var userID: String
    /// `token`: 10 hex digits on Douban.
    public var token: String
    /// `expire`: Unix seconds, as text.
    public var expire: String
    /// For display only.
    public var userName: String
    /// For display only.
    public var email: String

    /// Creates credentials.
    public init(userID: String, token: String, expire: String, userName: String = "", email: String = "") {
        self.userID = userID
        self.token = token
        self.expire = expire
        self.userName = userName
        self.email = email
    }
}
