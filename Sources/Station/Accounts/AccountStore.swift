import Foundation
import GRDB
import HummingbirdBcrypt
import StationStorage
import Synchronization

/// The station's accounts: users with bcrypt password hashes, the login tokens handed out
/// by `POST /j/app/login` and checked on every radio call, and the count of failed logins
/// per name that makes a captcha necessary (docs/PROTOCOL.md §5.1, §9).
///
/// Tokens are 10 random hex digits, Douban's shape (``LoginToken``), and expire
/// ``tokenLifetime`` after the login; a radio call with an expired or unknown token is
/// answered `{"r":1,"err":"expired"}`, and an address that keeps trying wrong ones is held
/// off by the ``TokenGuard``. The web family's logins (``webLogin(_:captchas:)``) hand out
/// the same tokens, inside the `dbcl2` cookie.
final class AccountStore: Sendable {
    /// Failed logins for one name after which a captcha is required.
    static let captchaThreshold = 3
    /// The longest user name accepted.
    static let nameLimit = 64
    /// bcrypt reads at most this many password bytes and ignores the rest.
    static let passwordLimit = 72

    private let database: StationDatabase
    /// How long a login token is valid.
    let tokenLifetime: Duration
    /// Tokens known to be live, by user, with their expiry, so a radio call needs no
    /// database read. Safe because a token never changes owner and is only ever removed
    /// after it expired or was revoked; bounded by ``tokenCacheLimit`` (cleared when full).
    /// Keyed by user rather than by token: a token is a secret, found only by comparing it
    /// in constant time (``LoginToken/equal(_:_:)``), never by hashing or a lookup that
    /// stops at the first differing byte.
    private let liveTokens = Mutex<[Int64: [(token: String, expires: Double)]]>([:])
    /// The most tokens remembered in memory.
    static let tokenCacheLimit = 10_000
    /// How long a failed login counts: failures older than this are forgotten, so the
    /// captcha a name needs lasts at most a day past its last failure.
    static let failureMemory: Double = 86_400
    /// The most failure counts kept for names that are no account: anyone can send any
    /// number of made-up names, and each would otherwise stay a row until it expired.
    let failureLimit: Int

    /// Creates the store.
    ///
    /// - Parameters:
    ///   - failureLimit: the most failure counts kept for names without an account
    ///     (default 10 000; the oldest go first). Accounts' own counts are always kept.
    init(database: StationDatabase, tokenLifetime: Duration, failureLimit: Int = 10_000) {
        self.database = database
        self.tokenLifetime = tokenLifetime
        self.failureLimit = failureLimit
    }

    // MARK: - Users

    /// Creates an account. Blocking: bcrypt is deliberately slow.
    ///
    /// - Parameters:
    ///   - name: the user name; a name containing `@` is also the account's e-mail address.
    ///   - password: 1 to 72 bytes of UTF-8.
    ///   - email: an e-mail address to log in with as well, if any.
    ///   - cost: bcrypt's cost (log2 of its rounds), 4 to 31.
    /// - Returns: the new `user_id`.
    /// - Throws: ``StationError/invalidUserName(_:)``, ``StationError/invalidPassword``,
    ///   ``StationError/userExists(name:)``, ``StationError/databaseFailed(path:reason:)``.
    static func addUser(name: String, password: String, email: String?, cost: UInt8,
                        database: StationDatabase) throws(StationError) -> String {
        guard isValidName(name) else { throw .invalidUserName(name) }
        if let email, !isValidName(email) || !email.contains("@") { throw .invalidUserName(email) }
        let passwordBytes = password.utf8.count
        guard passwordBytes >= 1, passwordBytes <= passwordLimit, !password.contains("\u{0}") else {
            throw .invalidPassword
        }
        let hash = Bcrypt.hash(password, cost: min(max(cost, 4), 31))
        let address = email ?? (name.contains("@") ? name : nil)
        do {
            return try database.pool.write { db in
                let clash = try Int.fetchOne(db, sql: """
                    SELECT COUNT(*) FROM user WHERE name = ? OR email = ? OR name = ? OR email = ?
                    """, arguments: [name, name, address, address]) ?? 0
                if clash > 0 { throw StationError.userExists(name: name) }
                // Douban's user ids are 7-digit numbers; the station counts on from 1000001.
                try db.execute(sql: """
                    INSERT INTO user (id, name, email, password_hash, created_at)
                    VALUES ((SELECT COALESCE(MAX(id), 1000000) + 1 FROM user), ?, ?, ?, ?)
                    """, arguments: [name, address, hash, Date().timeIntervalSince1970])
                return String(db.lastInsertedRowID)
            }
        } catch let error as StationError {
            throw error
        } catch {
            throw .databaseFailed(path: database.path, reason: StationDatabase.reason(error))
        }
    }

    /// Whether a name can be an account: 1 to ``nameLimit`` characters, no control
    /// characters, no surrounding white space.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= nameLimit && name == name.trimmingWhitespace()
            && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    // MARK: - Tokens

    /// Whether `token` is a live login of `userID`. The user's tokens are read by user id
    /// and each compared with `token` in constant time, so neither the cache nor the
    /// database index tells a guesser how much of a token was right.
    func isValid(userID: String, token: String) async throws(StationError) -> Bool {
        guard let id = Int64(userID), LoginToken.hasTokenShape(token) else { return false }
        let now = Date().timeIntervalSince1970
        if let known = liveTokens.withLock({ $0[id] })?.first(where: { LoginToken.equal($0.token, token) }) {
            return known.expires > now
        }
        guard let expires = try await storedToken(token, userID: id)?.expires, expires > now else { return false }
        remember(token, userID: id, expires: expires)
        return true
    }

    /// The stored row of `token` among `userID`'s, found by comparing in constant time.
    func storedToken(_ token: String, userID: Int64) async throws(StationError)
        -> (token: String, expires: Double, checkCode: String?)? {
        let rows = try await read { db in
            try Row.fetchAll(db, sql: "SELECT token, expires_at, check_code FROM token WHERE user_id = ?",
                             arguments: [userID])
                .map { (token: $0["token"] as String, expires: $0["expires_at"] as Double, checkCode: $0["check_code"] as String?) }
        }
        return rows.first { LoginToken.equal($0.token, token) }
    }

    /// Hands out a new token for `userID` (with a `ck` check code for a web login), forgetting
    /// expired ones on the way.
    ///
    /// - Returns: the token and its expiry in Unix seconds.
    func issueToken(userID: Int64, checkCode: String? = nil) async throws(StationError) -> (token: String, expires: Double) {
        let now = Date().timeIntervalSince1970
        let expires = now + Double(tokenLifetime.components.seconds)
            + Double(tokenLifetime.components.attoseconds) / 1e18
        let token = try await update { db -> String in
            try db.execute(sql: "DELETE FROM token WHERE expires_at <= ?", arguments: [now])
            // 40 bits: a clash with a live token is unlikely, but must not hand one
            // listener another's login.
            var token = LoginToken.make()
            while try Int.fetchOne(db, sql: "SELECT 1 FROM token WHERE token = ?", arguments: [token]) != nil {
                token = LoginToken.make()
            }
            try db.execute(sql: "INSERT INTO token (token, user_id, expires_at, check_code) VALUES (?, ?, ?, ?)",
                           arguments: [token, userID, expires, checkCode])
            return token
        }
        remember(token, userID: userID, expires: expires)
        return (token, expires)
    }

    /// Ends a login: its token stops working at once. `token` is one already matched
    /// (``storedToken(_:userID:)``), so deleting it by value tells nothing new.
    func revoke(token: String, userID: Int64) async throws(StationError) {
        liveTokens.withLock { tokens in tokens[userID]?.removeAll { LoginToken.equal($0.token, token) } }
        try await update { db in try db.execute(sql: "DELETE FROM token WHERE token = ?", arguments: [token]) }
    }

    private func remember(_ token: String, userID: Int64, expires: Double) {
        liveTokens.withLock { tokens in
            if tokens.values.reduce(0, { $0 + $1.count }) >= Self.tokenCacheLimit { tokens.removeAll() }
            tokens[userID, default: []].append((token, expires))
        }
    }

    // MARK: - Login

    /// Checks a login and hands out a token.
    ///
    /// In order: the client must be an app-API client (`wrong_version`); after
    /// ``captchaThreshold`` failures for the name, a captcha solved right
    /// (`captcha_required`, `wrong_captcha`); a known account (`invalidate_email` for the
    /// `email` field, `invalid_user_name` for `username`); the right password
    /// (`wrong_password`). Unknown names and wrong passwords count as failures.
    ///
    /// - Parameter captchaRequired: a captcha is needed whatever the name's count (the
    ///   address has failed too often, ``LoginGuard``).
    func login(_ form: AppLoginForm, captchas: CaptchaStore, captchaRequired: Bool = false) async throws(StationError)
        -> AppLoginAnswer {
        guard form.isSupportedClient else { return .refused("wrong_version") }
        guard let account = form.account, account.count <= 254 else {
            return .refused(form.username != nil ? "invalid_user_name" : "invalidate_email")
        }
        let needsCaptcha = try await captchaRequired ? true : failureCount(account) >= Self.captchaThreshold
        if needsCaptcha {
            guard let id = form.captchaID, let solution = form.captchaSolution else {
                return .refused("captcha_required")
            }
            guard captchas.consume(id: id, solution: solution) else { return .refused("wrong_captcha") }
        }
        let byEmail = form.email != nil
        let user = try await findAccount(account)
        guard let user, try await verify(form.password, of: user) else {
            try await recordFailure(account)
            return .refused(user == nil ? (byEmail ? "invalidate_email" : "invalid_user_name") : "wrong_password")
        }
        try await clearFailures(account)
        let (token, expires) = try await issueToken(userID: user.id)
        // An account made with a name only answers with that name: clients show `email`,
        // and Douban never sent it empty.
        return .success(userID: String(user.id), token: token, expire: Int(expires.rounded(.up)),
                        userName: user.name, email: user.email ?? user.name)
    }

    /// Failed logins of `account` that still count.
    func failureCount(_ account: String) async throws(StationError) -> Int {
        let since = Date().timeIntervalSince1970 - Self.failureMemory
        return try await read { db in
            try Int.fetchOne(db, sql: "SELECT count FROM login_failure WHERE name = ? AND last_at > ?",
                             arguments: [account, since]) ?? 0
        }
    }

    /// Forgets the failures of `account` after it logged in.
    func clearFailures(_ account: String) async throws(StationError) {
        try await update { db in
            try db.execute(sql: "DELETE FROM login_failure WHERE name = ?", arguments: [account])
        }
    }

    /// The account an e-mail address or name names, the e-mail match first.
    func findAccount(_ account: String) async throws(StationError) -> Account? {
        try await read { db in
            try Row.fetchOne(db, sql: """
                SELECT id, name, email, password_hash FROM user WHERE email = ? OR name = ?
                ORDER BY (email = ?) DESC LIMIT 1
                """, arguments: [account, account, account]).map(Account.init(row:))
        }
    }

    /// Whether `password` is `user`'s, checked with bcrypt off the cooperative pool.
    func verify(_ password: String, of user: Account) async throws(StationError) -> Bool {
        guard password.utf8.count <= Self.passwordLimit else { return false }
        let hash = user.passwordHash
        return await Blocking.run { () -> Bool in Bcrypt.verify(password, hash: hash) }
    }

    /// One row of the `user` table.
    struct Account: Sendable {
        /// The numeric id (`user_id`).
        var id: Int64
        /// The account's name.
        var name: String
        /// Its e-mail address, if it has one.
        var email: String?
        /// The bcrypt hash of its password.
        var passwordHash: String

        /// Reads a row of `SELECT id, name, email, password_hash`.
        init(row: Row) {
            id = row["id"]
            name = row["name"]
            email = row["email"]
            passwordHash = row["password_hash"]
        }
    }

    /// Reads without blocking, failures as the station's.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StationError) -> T {
        do throws(StorageError) { return try await database.read(body) } catch { throw StationError(database: error) }
    }

    /// Writes without blocking, failures as the station's.
    func update<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StationError) -> T {
        do throws(StorageError) { return try await database.update(body) } catch { throw StationError(database: error) }
    }

    /// Counts a failure for `account`, forgetting expired failures and, past
    /// ``failureLimit``, the oldest counts of names that are no account.
    func recordFailure(_ account: String) async throws(StationError) {
        let now = Date().timeIntervalSince1970
        let limit = failureLimit
        try await update { db in
            // An expired count starts again from 1 rather than adding to what was forgotten.
            try db.execute(sql: """
                INSERT INTO login_failure (name, count, last_at) VALUES (?, 1, ?)
                ON CONFLICT(name) DO UPDATE SET
                    count = CASE WHEN last_at > ? THEN count + 1 ELSE 1 END, last_at = excluded.last_at
                """, arguments: [account, now, now - Self.failureMemory])
            try db.execute(sql: "DELETE FROM login_failure WHERE last_at <= ?", arguments: [now - Self.failureMemory])
            let rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM login_failure") ?? 0
            guard rows > limit else { return }
            try db.execute(sql: """
                DELETE FROM login_failure WHERE rowid IN (
                    SELECT f.rowid FROM login_failure f
                    WHERE NOT EXISTS (SELECT 1 FROM user u WHERE u.name = f.name OR u.email = f.name)
                    ORDER BY f.last_at DESC LIMIT -1 OFFSET ?)
                """, arguments: [limit])
        }
    }
}
