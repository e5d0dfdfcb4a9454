import Foundation
import MhzVersion
import Scrobble
import TOMLKit

/// The `[scrobble]` table of `config.toml`: the ListenBrainz token, the Last.fm key, secret
/// and session, and where each service is. A service scrobbles when its credentials are
/// all there.
public struct ScrobbleSettings: Sendable, Equatable {
    /// `listenbrainz_token`.
    public var listenBrainzToken: String?
    /// `listenbrainz_url`.
    public var listenBrainzURL = ListenBrainz.defaultURL
    /// `lastfm_api_key`.
    public var lastFMKey: String?
    /// `lastfm_api_secret`.
    public var lastFMSecret: String?
    /// `lastfm_session_key`, written by `mhz scrobble login lastfm`.
    public var lastFMSession: String?
    /// `lastfm_url`.
    public var lastFMURL = LastFM.defaultURL

    /// Settings with no credentials, at the services' own addresses.
    public init() {}

    /// Every key the table may hold.
    public static let keys = ["listenbrainz_token", "listenbrainz_url", "lastfm_api_key", "lastfm_api_secret",
                       "lastfm_session_key", "lastfm_url"]

    /// mhz as the services are told of it.
    public static let client = ScrobbleClient(name: "mhz", version: MhzVersion.number)

    /// ListenBrainz, when a token is set.
    public var listenBrainz: ListenBrainz? {
        guard let token = listenBrainzToken, !token.isEmpty else { return nil }
        return ListenBrainz(baseURL: listenBrainzURL, token: token, client: Self.client)
    }

    /// Last.fm, when the key, the secret and a session key are set.
    public var lastFM: LastFM? {
        guard let key = lastFMKey, !key.isEmpty, let secret = lastFMSecret, !secret.isEmpty,
              let session = lastFMSession, !session.isEmpty else { return nil }
        return LastFM(url: lastFMURL, apiKey: key, secret: secret, sessionKey: session)
    }

    /// The services that will scrobble.
    public var endpoints: [any ScrobbleEndpoint] {
        var all: [any ScrobbleEndpoint] = []
        if let listenBrainz { all.append(listenBrainz) }
        if let lastFM { all.append(lastFM) }
        return all
    }

    /// Reads the table; errors name the key and what it must be.
    public static func parse(_ table: TOMLTable, path: String) throws(ConfigError) -> ScrobbleSettings {
        var settings = ScrobbleSettings()
        for key in table.keys where !keys.contains(key) {
            throw Config.unknown(key, in: "scrobble", of: table, path: path, known: keys)
        }
        func text(_ key: String) throws(ConfigError) -> String? {
            guard let value = table[key] else { return nil }
            guard let text = value.string else { throw .invalidValue(path: path, table: "scrobble", key: key, expected: .string) }
            return text
        }
        func url(_ key: String) throws(ConfigError) -> URL? {
            guard let text = try text(key) else { return nil }
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  url.host != nil else {
                throw .invalidValue(path: path, table: "scrobble", key: key, expected: .httpURL)
            }
            return url
        }
        settings.listenBrainzToken = try text("listenbrainz_token")
        settings.lastFMKey = try text("lastfm_api_key")
        settings.lastFMSecret = try text("lastfm_api_secret")
        settings.lastFMSession = try text("lastfm_session_key")
        if let value = try url("listenbrainz_url") { settings.listenBrainzURL = value }
        if let value = try url("lastfm_url") { settings.lastFMURL = value }
        return settings
    }
}
