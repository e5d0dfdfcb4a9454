import Foundation
import HTTP
import RadioAPI

/// A login as mhz keeps it between runs: who, on which server, and what the requests must
/// carry. Tokens only, never a password (the web family's cookies live in the cookie
/// jar next to it).
public struct StoredSession: Codable, Equatable, Sendable {
    /// The server the session belongs to (the runtime's session key): its URL as
    /// configured, or `embedded` for the in-process station, whose port changes per run.
    public var server: String
    /// The API family it was made with.
    public var api: APIFamily
    /// For messages: the name the server knows the listener by.
    public var userName: String
    /// The account id on the server.
    public var userID: String
    /// The app family's `user_id`/`token`/`expire`.
    public var app: AppCredentials?
    /// The web family's account (its session is in the cookie jar).
    public var web: WebUser?
    /// When the login happened.
    public var loggedInAt: Date

    /// Now, in whole seconds: what the file keeps (ISO 8601 without fractions), so a
    /// session reads back equal to the one written.
    public static func now() -> Date { Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)) }
}

/// Where sessions live: `session.json` and the web family's `cookies.txt` in the data
/// directory, both mode 0600 and written atomically; they hold tokens and cookies only,
/// never a password.
public struct SessionStore: Sendable {
    /// The data directory.
    public let directory: URL

    /// The sessions kept in `directory`.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The session's identity and app tokens.
    public var sessionFile: URL { directory.appendingPathComponent("session.json") }
    /// The web family's cookie jar, in libcurl's Netscape format.
    public var cookieFile: URL { directory.appendingPathComponent("cookies.txt") }

    /// The stored session, or `nil` when there is none.
    ///
    /// - Throws: ``SessionFailure/unreadable(path:)`` or ``SessionFailure/damaged(path:)``
    ///   when the file exists but cannot be read as a session (the user is told to log out
    ///   and in again).
    public func load() throws(SessionFailure) -> StoredSession? {
        guard let data = FileManager.default.contents(atPath: sessionFile.path) else {
            if FileManager.default.fileExists(atPath: sessionFile.path) {
                throw .unreadable(path: sessionFile.path)
            }
            return nil
        }
        // A file from an older mhz or edited by hand may be wider than 0600: tighten it.
        _ = chmod(sessionFile.path, 0o600)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let session = try? decoder.decode(StoredSession.self, from: data) else {
            throw .damaged(path: sessionFile.path)
        }
        return session
    }

    /// Writes the session with mode 0600, replacing any earlier one.
    public func save(_ session: StoredSession) throws(SessionFailure) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(session)
        } catch {
            throw .unencodable(reason: "\(error)")
        }
        do throws(PrivateFile.Failure) {
            try PrivateFile.write(data, to: sessionFile)
        } catch {
            throw .unwritable(error)
        }
    }

    /// Deletes the session and the cookie jar; missing files are fine.
    public func remove() throws(SessionFailure) {
        for file in [sessionFile, cookieFile] where unlink(file.path) != 0 && errno != ENOENT {
            throw .undeletable(path: file.path, reason: String(cString: strerror(errno)))
        }
    }

    /// The words of a file failure (``HTTPError/storage(_:)``), for messages.
    public static func words(_ error: HTTPError) -> String {
        if case .storage(let what) = error { return what }
        return "\(error)"
    }
}
