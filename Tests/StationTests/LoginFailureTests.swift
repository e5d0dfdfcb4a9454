import Foundation
import GRDB
@testable import Station
import Testing
import TestSupport
@testable import StationStorage

/// The failed-login counts behind the captcha stay bounded: made-up names cannot grow the
/// table without end, and old failures are forgotten.
@Suite("Login failures")
struct LoginFailureTests {
    private func form(_ name: String, _ password: String) -> AppLoginForm {
        AppLoginForm(pairs: [("app_name", "radio_android"), ("version", "100"), ("username", name), ("password", password)])
    }

    private func rows(_ database: StationDatabase) throws -> [String: Int] {
        try database.access { db in
            var counts: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, count FROM login_failure") { counts[row["name"]] = row["count"] }
            return counts
        }
    }

    @Test("past the limit, the oldest counts of names without an account go; accounts' counts stay")
    func boundedUnknownNames() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-failures")
        let database = try StationDatabase(directory: data.url)
        _ = try AccountStore.addUser(name: "real", password: "right", email: nil, cost: 4, database: database)
        let store = AccountStore(database: database, tokenLifetime: .seconds(60), failureLimit: 5)
        let captchas = CaptchaStore()

        #expect(try await store.login(form("real", "wrong"), captchas: captchas) == .refused("wrong_password"))
        for index in 0..<20 {
            #expect(try await store.login(form("ghost\(index)", "x"), captchas: captchas) == .refused("invalid_user_name"))
        }
        #expect(try await store.login(form("real", "wrong"), captchas: captchas) == .refused("wrong_password"))
        // Five made-up names (the latest) and the account's own count.
        #expect(try rows(database) == ["real": 2, "ghost15": 1, "ghost16": 1, "ghost17": 1, "ghost18": 1, "ghost19": 1])

        // A made-up name that is still counted keeps needing its captcha, as a real one would.
        for _ in 0..<2 { _ = try await store.login(form("ghost19", "x"), captchas: captchas) }
        #expect(try await store.login(form("ghost19", "x"), captchas: captchas) == .refused("captcha_required"))
        #expect(try rows(database).count == 6)
    }

    @Test("failures older than a day are forgotten: no captcha, and a new failure counts from 1")
    func expiry() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-failures")
        let database = try StationDatabase(directory: data.url)
        _ = try AccountStore.addUser(name: "old", password: "right", email: nil, cost: 4, database: database)
        let store = AccountStore(database: database, tokenLifetime: .seconds(60))
        let captchas = CaptchaStore()
        let dayAgo = Date().timeIntervalSince1970 - AccountStore.failureMemory - 5
        try database.write { db in
            try db.execute(sql: "INSERT INTO login_failure (name, count, last_at) VALUES ('old', 9, ?), ('gone', 9, ?)",
                           arguments: [dayAgo, dayAgo])
        }
        // Nine failures, but a day old: the right password needs no captcha.
        #expect(try await store.login(form("old", "right"), captchas: captchas) != .refused("captcha_required"))
        try database.write { db in
            try db.execute(sql: "INSERT INTO login_failure (name, count, last_at) VALUES ('old', 9, ?)", arguments: [dayAgo])
        }
        #expect(try await store.login(form("old", "wrong"), captchas: captchas) == .refused("wrong_password"))
        // The stale count restarted at 1, and the other expired row is gone.
        #expect(try rows(database) == ["old": 1])
    }
}
