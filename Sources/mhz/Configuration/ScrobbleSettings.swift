import Foundation
import Scrobble
import TOMLKit

/// The `[scrobble]` table of `config.toml`: the ListenBrainz token, the Last.fm key, secret
/// and session, and where each service is. A service scrobbles when its credentials are
/// all there.
struct ScrobbleSettings: Sendable, Equatable {
    /// `listenbrainz_token`.
    var listenBrainzToken: String?
    /// `listenbrainz_url`.
    var listenBrainzURL = ListenBrainz.defaultURL
    /// `lastfm_api_key`.
    var lastFMKey: String?
    /// `lastfm_api_secret`.
    var lastFMSecret: String?
    /// `lastfm_session_key`, written by `mhz scrobble login lastfm`.
    var lastFMSession: String?
    /// `lastfm_url`.
    var lastFMURL = LastFM.defaultURL

    /// Every key the table may hold.
    static let keys = ["listenbrainz_token", "listenbrainz_url", "lastfm_api_key", "lastfm_api_secret",
                       "lastfm_session_key", "lastfm_url"]

    /// mhz as the services are told of it.
    static let client = ScrobbleClient(name: "mhz", version: "0.1")

    /// ListenBrainz, when a token is set.
    var listenBrainz: ListenBrainz? {
        guard let token = listenBrainzToken, !token.isEmpty else { return nil }
        return ListenBrainz(baseURL: listenBrainzURL, token: token, client: Self.client)
    }

    /// Last.fm, when the key, the secret and a session key are set.
    var lastFM: LastFM? {
        guard let key = lastFMKey, !key.isEmpty, let secret = lastFMSecret, !secret.isEmpty,
              let session = lastFMSession, !session.isEmpty else { return nil }
        return LastFM(url: lastFMURL, apiKey: key, secret: secret, sessionKey: session)
    }

    /// The services that will scrobble.
    var endpoints: [any ScrobbleEndpoint] {
        var all: [any ScrobbleEndpoint] = []
        if let listenBrainz { all.append(listenBrainz) }
        if let lastFM { all.append(lastFM) }
        return all
    }

    /// Reads the table; errors name the key and what it must be.
    static func parse(_ table: TOMLTable, path: String) throws(CLIError) -> ScrobbleSettings {
        var settings = ScrobbleSettings()
        for key in table.keys where !keys.contains(key) {
            throw .configInvalid(path, line: nil, "unknown key \"\(key)\" in [scrobble] (known: \(keys.joined(separator: ", ")))")
        }
        func text(_ key: String) throws(CLIError) -> String? {
            guard let value = table[key] else { return nil }
            guard let text = value.string else { throw .configInvalid(path, line: nil, "[scrobble] \(key) must be a string") }
            return text
        }
        func url(_ key: String) throws(CLIError) -> URL? {
            guard let text = try text(key) else { return nil }
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  url.host != nil else {
                throw .configInvalid(path, line: nil, "[scrobble] \(key) must be an http(s) URL")
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
