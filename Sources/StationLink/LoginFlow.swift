import Foundation
import HTTP
import Logging
import RadioAPI

/// The steps of a login, shared by `mhz login` (which asks on the terminal) and the
/// terminal UI's login dialog (which asks in a form while the radio plays): fetch a
/// captcha (web family), post the login form once, and describe the session to keep.
/// Saving it and using it are the callers' business.
public struct LoginFlow: Sendable {
    /// The client; the web family's cookie jar is in it.
    public let http: HTTPClient
    /// Carries the requests: over `http`, or in-process to the embedded station.
    public let transport: any APITransport
    /// The server's requests.
    public let endpoints: StationEndpoints
    /// Which stored session this is (the server's URL as configured, or `embedded`).
    public let sessionKey: String
    /// Where requests are logged (redacted).
    public let logger: Logger

    /// The flow for a server: `sessionKey` names it (`embedded` for the in-process station).
    public init(http: HTTPClient, transport: any APITransport, endpoints: StationEndpoints, sessionKey: String,
                logger: Logger) {
        self.http = http
        self.transport = transport
        self.endpoints = endpoints
        self.sessionKey = sessionKey
        self.logger = logger
    }

    /// The server's name for messages.
    public var serverName: String { sessionKey == "embedded" ? "the embedded station" : sessionKey }

    /// Whether a captcha is part of the login (the web family).
    public var needsCaptcha: Bool { endpoints.family == .web }

    /// A fresh captcha: its id and image (web family only).
    public func captcha() async throws(LoginFailure) -> (id: String, image: Data) {
        guard case .web(let endpoints) = endpoints, let jar = http.cookieJar else {
            throw .storage("no cookie jar")
        }
        return try await WebLogin(transport: transport, endpoints: endpoints, jar: jar).captcha()
    }

    /// Posts the login form once and returns the session to keep (not yet saved).
    ///
    /// - Parameter captcha: the web family's captcha id and the listener's answer.
    public func logIn(account: String, password: String, captcha: (id: String, solution: String)?)
        async throws(LoginFailure) -> StoredSession
    {
        switch endpoints {
        case .app(var endpoints):
            endpoints.credentials = nil
            let credentials = try await AppLogin(transport: transport, endpoints: endpoints)
                .login(account: account, password: password)
            return StoredSession(server: sessionKey, api: .app, userName: credentials.userName,
                                 userID: credentials.userID, app: credentials, web: nil, loggedInAt: StoredSession.now())
        case .web(let endpoints):
            guard let jar = http.cookieJar else { throw .storage("no cookie jar") }
            // The jar is not emptied first: a login that fails must not cost the session
            // there was, and one that succeeds replaces its cookies by name.
            let user = try await WebLogin(transport: transport, endpoints: endpoints, jar: jar)
                .login(alias: account, password: password, captchaID: captcha?.id ?? "",
                       solution: captcha?.solution ?? "")
            return StoredSession(server: sessionKey, api: .web, userName: user.name, userID: user.id,
                                 app: nil, web: user, loggedInAt: StoredSession.now())
        }
    }

    /// Logs that `session` was made (ids only, never a secret).
    public func logSuccess(_ session: StoredSession) {
        logger.info("logged in to \(sessionKey) (\(session.api.rawValue) API) as user \(session.userID)")
    }
}

extension StoredSession {
    /// What requests carry for this session.
    public var login: Login {
        switch (app, web) {
        case (let credentials?, _): .app(credentials)
        case (nil, let user?): .web(user)
        case (nil, nil): .anonymous
        }
    }
}
