import RadioAPI

/// The fields of the web family's `POST /j/login` (docs/PROTOCOL.md §5.2): `source`,
/// `alias` (an e-mail address or a name), `form_password`, `captcha_solution`,
/// `captcha_id` and `remember` (`on` keeps the session cookies past the browser session).
struct WebLoginForm: Sendable, Equatable {
    /// `alias`, when sent.
    var alias: String?
    /// `form_password`.
    var password: String
    /// `captcha_id`, when sent.
    var captchaID: String?
    /// `captcha_solution`, when sent.
    var captchaSolution: String?
    /// `remember=on`.
    var remember: Bool

    /// Reads the fields from the decoded form body; later pairs win.
    init(pairs: [(String, String)]) {
        var fields: [String: String] = [:]
        for (name, value) in pairs { fields[name] = value }
        func field(_ name: String) -> String? {
            guard let value = fields[name]?.trimmingWhitespace(), !value.isEmpty else { return nil }
            return value
        }
        alias = field("alias")
        password = fields["form_password"] ?? ""
        captchaID = field("captcha_id")
        captchaSolution = field("captcha_solution")
        remember = fields["remember"] == "on"
    }
}

/// The answer of `POST /j/login`: `{"r":0,"user_info":{…}}` (fixtures F4, F7) or
/// `{"err_no":…,"r":1,"err_msg":…}` (fixture F5), with the cookies the HTTP route sets.
enum WebLoginAnswer: Sendable, Equatable, Encodable {
    /// Logged in.
    case success(WebAccount, session: WebSession)
    /// Refused: Douban's number and message.
    case refused(number: Int, message: String)

    /// Douban's refusal for a wrong or missing captcha (fixture F5).
    static let wrongCaptcha = WebLoginAnswer.refused(number: 1011, message: "验证码不正确")
    /// mhz's refusal for an unknown account or a wrong password (Douban's number for it is
    /// not recorded): one answer for both, so names cannot be probed.
    static let wrongPassword = WebLoginAnswer.refused(number: 1012, message: "帐号和密码不匹配")
    /// mhz's refusal for an empty alias or password.
    static let missingFields = WebLoginAnswer.refused(number: 1001, message: "请输入帐号和密码")
    /// mhz's refusal for an address that failed to log in too often (``LoginGuard``; Douban's
    /// number for it is not recorded).
    static let tooManyAttempts = WebLoginAnswer.refused(number: 1020, message: "登录尝试过多，请稍后再试")
    /// mhz's refusal, with HTTP 413, for a form larger than any login
    /// (``RequestLimitMiddleware/maximumBodySize``).
    static let tooLarge = WebLoginAnswer.refused(number: 1021, message: "请求内容过大")

    /// Whether this answer is a failed guess the address is held to: a wrong captcha, or
    /// an unknown account or wrong password.
    var isFailedAttempt: Bool {
        self == .wrongCaptcha || self == .wrongPassword
    }

    private enum Keys: String, CodingKey { case r, err_no, err_msg, user_info }

    /// Encodes the web family's login shape.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        switch self {
        case .success(let account, let session):
            try c.encode(0, forKey: .r)
            try c.encode(WebUserInfo(account: account, checkCode: session.checkCode), forKey: .user_info)
        case .refused(let number, let message):
            try c.encode(1, forKey: .r)
            try c.encode(number, forKey: .err_no)
            try c.encode(message, forKey: .err_msg)
        }
    }
}

/// What the station tells a web client about its account.
struct WebAccount: Sendable, Equatable {
    /// The numeric account id.
    var id: String
    /// The account's name.
    var name: String
    /// Songs this listener liked, trashed and was served (the songs the station holds a
    /// mark for), for `play_record`.
    var liked: Int, banned: Int, played: Int
}

/// A web login's session: the cookie values.
struct WebSession: Sendable, Equatable {
    /// The account id.
    var userID: String
    /// The login token.
    var token: String
    /// The `ck` check code.
    var checkCode: String
    /// Unix time when the token expires.
    var expires: Int

    /// `dbcl2`'s value, `<user id>:<token>` as Douban's (`69077079:hXADDW6guJg`).
    var cookieValue: String { "\(userID):\(token)" }

    /// The user id and token a `dbcl2` value names, quotes stripped; nil for another shape.
    static func parse(cookie: String) -> (userID: String, token: String)? {
        var value = Substring(cookie)
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
        let parts = value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy({ $0.isASCII && $0.isNumber }),
              LoginToken.hasTokenShape(String(parts[1]))
        else { return nil }
        return (String(parts[0]), String(parts[1]))
    }
}

/// `user_info` of a web login answer, in F4's fields.
private struct WebUserInfo: Encodable {
    let account: WebAccount
    let checkCode: String

    private enum Keys: String, CodingKey {
        case ck, id, uid, name, url, is_dj, is_new_user, is_pro, play_record, third_party_info
    }

    private enum RecordKeys: String, CodingKey { case fav_chls_count, liked, banned, played }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(checkCode, forKey: .ck)
        try c.encode(account.id, forKey: .id)
        // `uid` names the profile in URLs; the station's accounts have no vanity names.
        try c.encode(account.id, forKey: .uid)
        try c.encode(account.name, forKey: .name)
        try c.encode("/people/\(account.id)/", forKey: .url)
        try c.encode(false, forKey: .is_dj)
        try c.encode(account.played == 0 ? 1 : 0, forKey: .is_new_user)
        try c.encode(false, forKey: .is_pro)
        var record = c.nestedContainer(keyedBy: RecordKeys.self, forKey: .play_record)
        try record.encode(0, forKey: .fav_chls_count)
        try record.encode(account.liked, forKey: .liked)
        try record.encode(account.banned, forKey: .banned)
        try record.encode(account.played, forKey: .played)
        try c.encodeNil(forKey: .third_party_info)
    }
}
