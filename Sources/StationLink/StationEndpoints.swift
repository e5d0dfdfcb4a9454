import Foundation
import RadioAPI

/// Who requests speak for while mhz runs.
public enum Login: Sendable, Equatable {
    /// Nobody: the server answers with its anonymous lists.
    case anonymous
    /// An app-family login: its tokens go into every playlist query.
    case app(AppCredentials)
    /// A web-family login: its cookies are in the client's jar.
    case web(WebUser)

    /// Whether requests carry a login.
    public var isLoggedIn: Bool { self != .anonymous }
}

/// The requests of the configured server's API family, with the login put where that
/// family carries it.
public enum StationEndpoints: Sendable, Equatable {
    /// The app family (and the embedded station).
    case app(AppEndpoints)
    /// The web family.
    case web(WebEndpoints)

    /// The family.
    public var family: APIFamily {
        switch self {
        case .app: .app
        case .web: .web
        }
    }

    /// The channel list request.
    public func channels() -> APIRequest {
        switch self {
        case .app(let endpoints): endpoints.channels()
        case .web(let endpoints): endpoints.channels()
        }
    }

    /// The playlist request for `report`, as `login`, with the variety dial at `variety`
    /// (nil: not sent). The app family puts the tokens into the query; the web family's
    /// cookies are added by the HTTP layer's jar.
    public func playlist(_ report: Report, as login: Login, variety: Double? = nil) -> APIRequest {
        switch self {
        case .app(var endpoints):
            if case .app(let credentials) = login { endpoints.credentials = credentials } else { endpoints.credentials = nil }
            endpoints.variety = variety
            return endpoints.playlist(report)
        case .web(var endpoints):
            endpoints.variety = variety
            return endpoints.playlist(report)
        }
    }

    /// A page of `/j/app/radio/liked_songs` as `login`; nil for the web family, whose
    /// listener is its cookies, which that app-family route does not read.
    public func likedSongs(count: Int, excluding sids: [String], as login: Login) -> APIRequest? {
        guard case .app(var endpoints) = self else { return nil }
        if case .app(let credentials) = login { endpoints.credentials = credentials } else { endpoints.credentials = nil }
        return endpoints.likedSongs(count: count, excluding: sids)
    }
}
