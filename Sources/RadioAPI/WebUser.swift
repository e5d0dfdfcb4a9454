/// The listener a web login (`POST /j/login`) signed in, from its `user_info` object
/// (douban-protocol.md §5.2; fixtures F4, F7).
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
    var status: Int
    var errorNumber: Int?
    var errorMessage: String?
    var error: String?
    var user: UserInfo?

    struct UserInfo: Decodable {
        var id: String?
        var uid: String?
        var name: String?
        var isPro: Bool?

        enum CodingKeys: String, CodingKey { case id, uid, name, isPro = "is_pro" }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.lenientString(.id)
            uid = try c.lenientString(.uid)
            name = try c.lenientString(.name)
            isPro = try c.lenientBool(.isPro)
        }
    }

    enum CodingKeys: String, CodingKey {
        case status = "r", errorNumber = "err_no", errorMessage = "err_msg", error = "err", user = "user_info"
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        status = try c.lenientInt(.status) ?? 0
        errorNumber = try c.lenientInt(.errorNumber)
        errorMessage = try c.lenientString(.errorMessage)
        error = try c.lenientString(.error)
        user = try c.decodeIfPresent(UserInfo.self, forKey: .user)
    }
}
