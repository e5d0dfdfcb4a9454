/// The answer of `POST /j/app/login`: the F2 shape on success, all strings but `r`
/// (`{"user_id","err":"ok","token","expire","r":0,"user_name","email"}`), else
/// `{"r":1,"err":word}`.
enum AppLoginAnswer: Sendable, Equatable, Encodable {
    /// Logged in.
    case success(userID: String, token: String, expire: Int, userName: String, email: String)
    /// Refused with an error word: `wrong_version`, `invalidate_email`,
    /// `invalid_user_name`, `wrong_password`, `captcha_required`, `wrong_captcha`,
    /// `too_many_attempts` (``LoginGuard``).
    case refused(String)

    /// Whether this answer is a failed guess the address is held to: an unknown account,
    /// a wrong password or a wrong captcha (not a client the station does not serve, nor a
    /// captcha asked for).
    var isFailedAttempt: Bool {
        guard case .refused(let word) = self else { return false }
        return ["invalidate_email", "invalid_user_name", "wrong_password", "wrong_captcha"].contains(word)
    }

    private enum CodingKeys: String, CodingKey {
        case userID = "user_id", err, token, expire, r, userName = "user_name", email
    }

    /// Encodes the app API's login shape.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .success(let userID, let token, let expire, let userName, let email):
            try c.encode(userID, forKey: .userID)
            try c.encode("ok", forKey: .err)
            try c.encode(token, forKey: .token)
            try c.encode(String(expire), forKey: .expire)
            try c.encode(0, forKey: .r)
            try c.encode(userName, forKey: .userName)
            try c.encode(email, forKey: .email)
        case .refused(let word):
            try c.encode(1, forKey: .r)
            try c.encode(word, forKey: .err)
        }
    }
}
