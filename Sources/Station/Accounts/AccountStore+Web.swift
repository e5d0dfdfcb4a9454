import Foundation
import GRDB

/// The web family's sessions (docs/PROTOCOL.md §5.2): a login that always takes a captcha,
/// answered with `user_info` and the cookies `dbcl2` (`<user id>:<token>`, the same tokens
/// the app family gets), `ck` (the check code a logout must present) and `bid`.
extension AccountStore {
    /// Checks a web login and opens a session.
    ///
    /// In order: alias and password present (`1001`); the captcha solved (`1011`, the
    /// captcha is used up either way, as Douban's web login always asked for one); a known
    /// account with that password (`1012`, one answer for both so names cannot be probed).
    /// Failures count toward the name's failures as the app family's do.
    func webLogin(_ form: WebLoginForm, captchas: CaptchaStore) async throws(StationError) -> WebLoginAnswer {
        guard let id = form.captchaID, let solution = form.captchaSolution,
              captchas.consume(id: id, solution: solution)
        else { return .wrongCaptcha }
        guard let alias = form.alias, alias.count <= 254, !form.password.isEmpty else { return .missingFields }
        guard let user = try await findAccount(alias), try await verify(form.password, of: user) else {
            try await recordFailure(alias)
            return .wrongPassword
        }
        try await clearFailures(alias)
        let checkCode = LoginToken.makeCheckCode()
        let (token, expires) = try await issueToken(userID: user.id, checkCode: checkCode)
        let listener = "user:\(user.id)"
        let counts = try await read { db -> (liked: Int, banned: Int, played: Int) in
            let row = try Row.fetchOne(db, sql: """
                SELECT COALESCE(SUM(liked), 0) AS liked, COALESCE(SUM(trashed), 0) AS banned, COUNT(*) AS played
                FROM song_mark WHERE listener = ?
                """, arguments: [listener])
            return (row?["liked"] ?? 0, row?["banned"] ?? 0, row?["played"] ?? 0)
        }
        let account = WebAccount(id: String(user.id), name: user.name,
                                 liked: counts.liked, banned: counts.banned, played: counts.played)
        let session = WebSession(userID: String(user.id), token: token, checkCode: checkCode,
                                 expires: Int(expires.rounded(.up)))
        return .success(account, session: session)
    }

    /// The account a `dbcl2` cookie value is a live login of; nil for anything else.
    func webUser(cookie: String) async throws(StationError) -> String? {
        guard let (userID, token) = WebSession.parse(cookie: cookie),
              try await isValid(userID: userID, token: token)
        else { return nil }
        return userID
    }

    /// Ends the session of a `dbcl2` cookie when `checkCode` is its `ck`; anything else
    /// ends nothing (a page cannot log a listener out without the check code).
    ///
    /// - Returns: whether a session ended.
    @discardableResult
    func webLogout(cookie: String, checkCode: String) async throws(StationError) -> Bool {
        guard let (userID, token) = WebSession.parse(cookie: cookie), let id = Int64(userID) else { return false }
        // Both secrets compared in constant time: the token among the user's, then its `ck`.
        guard let stored = try await storedToken(token, userID: id)?.checkCode, LoginToken.equal(stored, checkCode)
        else { return false }
        try await revoke(token: token, userID: id)
        return true
    }
}
