import Foundation
import HLSPlaylist
import HTTP

/// Fetches and reads playlists over HTTP and chooses what to download from a master
/// playlist (see ``MasterPlaylist/choose(_:audioLanguage:)``). Playlists are small: they are
/// read into memory, decoded as UTF-8 and parsed with ``PlaylistParser``.
public struct HLSPlanner: Sendable {
    /// The client playlists are fetched with.
    let http: HTTPClient

    /// Creates a planner.
    public init(http: HTTPClient) { self.http = http }

    /// Fetches `url` and, when it is a master playlist, the media playlist of the variant
    /// `quality` picks (its audio rendition's, when that is a playlist of its own: audio
    /// alone is what a listener keeps).
    public func plan(_ url: URL, quality: VariantQuality, audioLanguage: String?) async throws(DownloadError) -> HLSPlan {
        let (playlist, finalURL) = try await fetch(url)
        switch playlist {
        case .media(let media):
            return HLSPlan(master: nil, choice: nil, mediaURL: finalURL, media: media)
        case .master(let master):
            guard let choice = master.choose(quality, audioLanguage: audioLanguage) else {
                throw .playlist(url: url.absoluteString, reason: .emptyPlaylist)
            }
            let target = choice.audio?.uri ?? choice.variant.uri
            let (inner, innerURL) = try await fetch(target)
            guard case .media(let media) = inner else {
                // A master playlist naming another master: RFC 8216 has no such thing.
                throw .playlist(url: target.absoluteString, reason: .notAMediaPlaylist)
            }
            return HLSPlan(master: master, choice: choice, mediaURL: innerURL, media: media)
        }
    }

    /// Fetches a media playlist (a resume, a live reload).
    public func media(_ url: URL) async throws(DownloadError) -> (MediaPlaylist, URL) {
        let (playlist, finalURL) = try await fetch(url)
        guard case .media(let media) = playlist else {
            throw .playlist(url: url.absoluteString, reason: .notAMediaPlaylist)
        }
        return (media, finalURL)
    }

    /// One playlist and the URL it came from after redirects (RFC 8216 §4.1 and RFC 3986
    /// §5.1.3: relative URIs resolve against that one, not the URL first asked). A failure
    /// names the playlist (``DownloadError/playlist(url:reason:)``): a master's variant
    /// may fail where the master did not.
    func fetch(_ url: URL) async throws(DownloadError) -> (Playlist, URL) {
        do throws(DownloadError) {
            let response = try await http.document(url)
            guard !response.body.isEmpty else { throw .emptyPlaylist }
            let base = response.effectiveURL ?? url
            do {
                return (try PlaylistParser.parse(response.body, url: base), base)
            } catch {
                throw Self.failure(error)
            }
        } catch {
            throw .playlist(url: url.absoluteString, reason: error)
        }
    }

    /// A parser's error as a task's reason.
    public static func failure(_ error: PlaylistError) -> DownloadError {
        switch error {
        case .empty: .emptyPlaylist
        case .notAPlaylist(let first): .notAPlaylist(firstLine: first)
        case .malformed(let line, let text, let reason): .malformedPlaylist(line: line, text: text, reason: "\(reason)")
        case .unsupportedEncryption(let method, let format): .unsupportedEncryption(method: method, keyFormat: format)
        }
    }
}
