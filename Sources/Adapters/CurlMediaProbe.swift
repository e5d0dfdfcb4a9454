import Foundation
import HTTP
import Playback

/// Playback's ``MediaURLProbe`` over the project's one HTTP stack (libcurl): when mpv could
/// not open a song's media URL and its log did not carry the status, the player asks here,
/// so an expired link (403/404/410) makes the radio fetch a fresh list instead of blaming
/// the song.
public struct CurlMediaProbe: MediaURLProbe {
    private let http: HTTPClient

    /// A probe with the API's settings (proxy, TLS checks, User-Agent — the one mpv sends
    /// too), but bounded for the player's sake: the item's `finished` waits for the answer.
    ///
    /// Deliberately its own client without a cookie jar: media may live on another host (a
    /// CDN), and the web family's session cookies must never reach it.
    public init(configuration: HTTPConfiguration) {
        var bounded = configuration
        bounded.connectTimeout = min(configuration.connectTimeout, 5)
        bounded.totalTimeout = min(configuration.totalTimeout, 5)
        // `Range: bytes=0-0` asks for one byte; a server that ignores it may send the whole
        // song, which libcurl then aborts (no status: reported as mpv's own failure).
        bounded.maxResponseBytes = 1 << 20
        bounded.retry = .never
        http = HTTPClient(configuration: bounded)
    }

    /// The status of `GET url` with `Range: bytes=0-0`; nil without an HTTP answer.
    public func status(of url: String) async -> Int? {
        guard let target = URL(string: url) else { return nil }
        do {
            return try await http.perform(HTTPRequest(url: target, headers: [.init("Range", "bytes=0-0")])).status
        } catch {
            return nil
        }
    }
}
