import Foundation
import HTTP
import RadioAPI

/// A login as mhz keeps it between runs: who, on which server, and what the requests must
/// carry. Tokens only, never a password (the web family's cookies live in the cookie
/// jar next to it).
struct StoredSession: Codable, Equatable, Sendable {
    /// The server the session belongs to (``RadioRuntime/sessionKey``): its URL as
    /// configured, or `embedded` for the in-process station, whose port changes per run.
    var server: String
    /// The API family it was made with.
    var api: APIFamily
    /// For messages: the name the server knows the listener by.
    var userName: String
    /// The account id on the server.
    var userID: String
    /// The app family's `user_id`/`token`/`expire`.
    var app: AppCredentials?
    /// The web family's account (its session is in the cookie jar).
    var web: WebUser?
    /// When the login happened.
    var loggedInAt: Date

    /// Now, in whole seconds: what the file keeps (ISO 8601 without fractions), so a
    /// session reads back equal to the one written.
    static func now() -> Date { Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)) }
}

/// Where sessions live: `session.json` and the web family's `cookies.txt` in the data
/// directory, both mode 0600 and written atomically; they hold tokens and cookies only,
/// never a password.
struct SessionStore: Sendable {
    /// The data directory.
    let directory: URL

    /// The session's identity and app tokens.
    var sessionFile: URL { directory.appendingPathComponent("session.json") }
    /// The web family's cookie jar, in libcurl's Netscape format.
    var cookieFile: URL { directory.appendingPathComponent("cookies.txt") }

    /// The stored session, or `nil` when there is none.
    ///
    /// - Throws: ``CLIError/runtime(_:)`` when the file exists but cannot be read as a
    ///   session (the user is told to log out and in again).
    func load() throws(CLIError) -> StoredSession? {
        guard let data = FileManager.default.contents(atPath: sessionFile.path) else {
            if FileManager.default.fileExists(atPath: sessionFile.path) {
                throw .runtime("cannot read the session file \(sessionFile.path): check its permissions, or run `mhz logout`")
            }
            return nil
        }
        // A file from an older mhz or edited by hand may be wider than 0600: tighten it.
        _ = chmod(sessionFile.path, 0o600)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let session = try? decoder.decode(StoredSession.self, from: data) else {
            throw .runtime("the session file \(sessionFile.path) is damaged: run `mhz logout`, then `mhz login`")
        }
        return session
    }

    /// Writes the session with mode 0600, replacing any earlier one.
    func save(_ session: StoredSession) throws(CLIError) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(session)
        } catch {
            throw .runtime("cannot save the session: \(error)")
        }
        do throws(PrivateFile.Failure) {
            try PrivateFile.write(data, to: sessionFile)
        } catch {
            throw .runtime("cannot save the session: \(error.words) — check the data directory (--data-dir)")
        }
    }

    /// Deletes the session and the cookie jar; missing files are fine.
    func remove() throws(CLIError) {
        for file in [sessionFile, cookieFile] where unlink(file.path) != 0 && errno != ENOENT {
            throw .runtime("cannot delete \(file.path): \(String(cString: strerror(errno))) — delete it by hand")
        }
    }

    /// The words of a file failure (``HTTPError/storage(_:)``), for messages.
    static func words(_ error: HTTPError) -> String {
        if case .storage(let what) = error { return what }
        return "\(error)"
    }
}
