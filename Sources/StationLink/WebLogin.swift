import Foundation
import HTTP
import Radio
import RadioAPI

/// The web family's session over the wire (docs/PROTOCOL.md §5.2): a captcha, the login
/// form, the cookies it sets, and the logout that ends it on the server.
///
/// The cookies are kept by the HTTP client's jar; this type decides when they are saved
/// (after a login) and forgotten (after a logout).
public struct WebLogin: Sendable {
    /// The cookie that carries the session: `dbcl2="<user id>:<secret>"`. zhendi/DoubanFM-CLI considers a
    /// session restorable iff it (and `bid`) is present.
    public static let sessionCookie = "dbcl2"
    /// The cookie whose value authorises logout and writes (`ck=` on logout).
    public static let checkCookie = "ck"

    /// Performs the requests.
    public let transport: any APITransport
    /// The web family's requests.
    public let endpoints: WebEndpoints
    /// The client's jar.
    public let jar: CookieJar

    /// The login of the station `endpoints` name, over `transport`, its cookies in `jar`.
    public init(transport: any APITransport, endpoints: WebEndpoints, jar: CookieJar) {
        self.transport = transport
        self.endpoints = endpoints
        self.jar = jar
    }

    /// Asks for a new captcha: its id (`/j/new_captcha`, which also sets `bid`) and its
    /// image (`/misc/captcha`, sent with that cookie).
    public func captcha() async throws(LoginFailure) -> (id: String, image: Data) {
        do throws(ServiceFailure) {
            let body = try await transport.perform(endpoints.newCaptcha())
            let id: String
            do {
                id = try APIDecoder.captchaID(body)
            } catch {
                throw StationTransport.failure(error)
            }
            let image = try await transport.perform(endpoints.captchaImage(id: id))
            guard !image.isEmpty else { throw ServiceFailure.malformed("empty captcha image") }
            return (id, image)
        } catch {
            throw .service(error)
        }
    }

    /// Posts the login form (once: a login is never retried) and saves the cookies it set.
    ///
    /// - Returns: the account the server signed in.
    public func login(alias: String, password: String, captchaID: String, solution: String) async throws(LoginFailure)
        -> WebUser
    {
        let request = endpoints.login(alias: alias, password: password, captchaID: captchaID, captchaSolution: solution)
        let body: Data
        do {
            body = try await transport.perform(request)
        } catch {
            throw .service(error)
        }
        let user: WebUser
        do {
            user = try APIDecoder.webLogin(body)
        } catch {
            switch error {
            case .refused(let code, let message): throw .refusedWithMessage(code: code, message: message)
            case .server(let word): throw .refused(word)
            default: throw .service(StationTransport.failure(error))
            }
        }
        guard jar.cookie(named: Self.sessionCookie) != nil else { throw .noSessionCookie }
        do {
            try jar.save()
        } catch {
            throw .storage(SessionStore.words(error))
        }
        return user
    }

    /// Ends the session on the server (`/partner/logout` with the `ck` cookie's value) and
    /// forgets the cookies, on disk too. The cookies are forgotten even when the server
    /// cannot be reached; that failure is still reported.
    public func logout() async throws(LoginFailure) {
        defer { try? jar.erase() }
        guard let check = jar.cookie(named: Self.checkCookie)?.value else { return }
        do {
            _ = try await transport.perform(endpoints.logout(ck: check))
        } catch {
            throw .service(error)
        }
    }
}

/// The app family's login (docs/PROTOCOL.md §5.1): one form POST, tokens back.
public struct AppLogin: Sendable {
    /// Performs the request.
    public let transport: any APITransport
    /// The app family's requests.
    public let endpoints: AppEndpoints

    /// The login of the station `endpoints` name, over `transport`.
    public init(transport: any APITransport, endpoints: AppEndpoints) {
        self.transport = transport
        self.endpoints = endpoints
    }

    /// Logs in with an e-mail address or a user name (sent as `email` or `username`).
    public func login(account: String, password: String) async throws(LoginFailure) -> AppCredentials {
        let body: Data
        do {
            body = try await transport.perform(endpoints.login(account: account, password: password))
        } catch {
            throw .service(error)
        }
        do {
            return try APIDecoder.appLogin(body)
        } catch {
            if case .server(let word) = error { throw .refused(word) }
            throw .service(StationTransport.failure(error))
        }
    }
}
