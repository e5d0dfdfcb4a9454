/// The listener a web login (`POST /j/login`) signed in, from its `user_info` object
/// (docs/PROTOCOL.md §5.2; fixtures F4, F7).
///
/// The session itself travels in cookies; this is what is worth showing and keeping.
public struct WebUser: Sendable, Equatable, Codable {
    /// The numeric account id (`id`), as text.
    public var id: String
    /// The profile name in URLs (`uid`): the numeric id or a vanity name.
    public var uid: String
    /// The display name (`name`).
    public var name: String
    /// Whether the account is Pro (higher bitrates are honoured only then).
    public var isPro: Bool

    /// Creates a user.
    public init(id: String, uid: String, name: String, isPro: Bool = false) {
        self.id = id
        self.uid = uid
        self.name = name
        self.isPro = isPro
    }
}

/// The answer of `/j/login`: `{"r":0,"user_info":{…}}` on success,
/// `{"err_no":1011,"r":1,"err_msg":"验证码不正确"}` on failure.
struct WebLoginAnswer: Decodable {
    /// `r`: 0 for a login, 1 for a refusal.
    var status: Int
    /// `err_no`: the refusal's number (1011: the captcha was wrong).
    var errorNumber: Int?
    /// `err_msg`: the refusal in the station's words, meant for a person.
    var errorMessage: String?
    /// `err`: a refusal word, as the app family sends it (some web servers do too).
    var error: String?
    /// `user_info`: who logged in; absent on a refusal.
    var user: UserInfo?

    /// The `user_info` object; every field optional, as servers leave some out.
    struct UserInfo: Decodable {
        /// `id`: the numeric account id.
        var id: String?
        /// `uid`: the profile name in URLs.
        var uid: String?
        /// `name`: the display name.
        var name: String?
        /// `is_pro`: a Pro account.
        var isPro: Bool?

        /// The wire names.
        enum CodingKeys: String, CodingKey { case id, uid, name, isPro = "is_pro" }

        /// Reads every field leniently (numbers as strings, flags as 0/1 or text).
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.lenientString(.id)
            uid = try c.lenientString(.uid)
            name = try c.lenientString(.name)
            isPro = try c.lenientBool(.isPro)
        }
    }

    /// The wire names.
    enum CodingKeys: String, CodingKey {
        case status = "r", errorNumber = "err_no", errorMessage = "err_msg", error = "err", user = "user_info"
    }

    /// Reads every field leniently (numbers as strings and the reverse); a missing `r`
    /// counts as 0, and whether a login happened is then decided by `user_info`.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        status = try c.lenientInt(.status) ?? 0
        errorNumber = try c.lenientInt(.errorNumber)
        errorMessage = try c.lenientString(.errorMessage)
        error = try c.lenientString(.error)
        user = try c.decodeIfPresent(UserInfo.self, forKey: .user)
    }
}
