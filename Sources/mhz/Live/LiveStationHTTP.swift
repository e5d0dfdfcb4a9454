import Foundation
import HLSPlaylist
import HTTP
import Radio
import RadioAPI
import StationLink
import Synchronization

/// The radio's ``LiveStation`` port over a station's live routes (docs/PROTOCOL.md §11),
/// read with libcurl and the playlist parser: the two layers the radio does not import.
struct LiveStationHTTP: LiveStation {
    /// The station's root: `--server`, or the embedded station's loopback address.
    let base: URL
    /// The client the requests go through (no session: the live routes carry no password).
    let http: HTTPClient
    /// The listener id the station handed out with each channel's master playlist: on
    /// every playlist read, the stream mpv plays (the master playlist carries it on to the
    /// variants mpv polls) and the feedback, so the votes of this mhz are those of the
    /// listener the station sees polling.
    private let listeners = ListenerIDs()

    /// The live routes of the station at `base`, asked through `http`.
    init(base: URL, http: HTTPClient) {
        self.base = base
        self.http = http
    }

    /// The variant whose playlist is read for the window: the variants' segments share
    /// their boundaries, sequence numbers and dates, so any one tells them all.
    static let variant = 128

    func window(channel: String, from begin: Int64?) async throws(ServiceFailure) -> LiveWindow {
        if listeners.id(of: channel) == nil { await tuneIn(channel) }
        let url = address("live/\(channel)/\(Self.variant).m3u8", begin: begin, listener: listeners.id(of: channel))
        let body = try await get(url)
        let playlist: Playlist
        do throws(PlaylistError) {
            playlist = try PlaylistParser.parse(body, url: url)
        } catch {
            throw .malformed("\(url.path): \(PlaylistText.words(error))")
        }
        guard case .media(let media) = playlist else {
            throw .malformed("\(url.path) is a master playlist, not a media playlist")
        }
        guard let window = LiveWindow(playlist: media) else {
            throw .malformed("\(url.path) lists no segments, or one without EXT-X-PROGRAM-DATE-TIME or past its range")
        }
        return window
    }

    func aired(channel: String) async throws(ServiceFailure) -> [AiredSong] {
        let url = address("live/\(channel)/aired.json", begin: nil)
        let body = try await get(url)
        return try Self.decoded(AiredList.self, from: body, at: url).songs
    }

    func streamURL(channel: String, from begin: Int64) -> String {
        address("live/\(channel).m3u8", begin: begin, listener: listeners.id(of: channel)).absoluteString
    }

    func feedback(channel: String, type: ReportType, sid: String) async throws(ServiceFailure) -> LiveTally {
        let url = address("live/\(channel)/feedback", begin: nil)
        var response = try await post(url, type: type, sid: sid, listener: listeners.id(of: channel))
        // A station restarted since it handed out the id knows it no more: a new id is read,
        // named in a poll of the window (so the station sees it listening), and the word
        // sent once more (a refused word was not counted).
        if response.status == 403, (try? JSONDecoder().decode(LiveRefusal.self, from: response.body))?.err == "unknown_listener" {
            listeners.forget(channel)
            await tuneIn(channel)
            if let id = listeners.id(of: channel) {
                _ = try? await get(address("live/\(channel)/\(Self.variant).m3u8", begin: nil, listener: id))
                response = try await post(url, type: type, sid: sid, listener: id)
            }
        }
        guard response.status == 200 else { throw StationTransport.failure(status: response.status) }
        return try Self.decoded(LiveFeedbackAnswer.self, from: response.body, at: url)
    }

    /// An answer of the station's read by the Douban answers' rules, what is wrong with it
    /// in words (an HTML page, a missing field by its path) after the route it came from.
    private static func decoded<T: Decodable>(_ type: T.Type, from body: Data, at url: URL) throws(ServiceFailure) -> T {
        do throws(APIError) {
            return try APIDecoder.answer(type, from: body)
        } catch {
            switch StationTransport.failure(error) {
            case .malformed(let what): throw .malformed("\(url.path): \(what)")
            case let failure: throw failure
            }
        }
    }

    /// Reads the channel's master playlist for the listener id its variants' URIs carry
    /// (`listener=`), kept for the channel. A station that hands none out, or an answer
    /// that is none, leaves none (the next window read asks again): the listening goes on,
    /// and the station answers a vote without an id with its refusal.
    private func tuneIn(_ channel: String) async {
        let url = address("live/\(channel).m3u8", begin: nil)
        guard let body = try? await get(url), case .master(let master)? = try? PlaylistParser.parse(body, url: url) else {
            return
        }
        let ids = master.variants.compactMap { variant in
            URLComponents(url: variant.uri, resolvingAgainstBaseURL: true)?.queryItems?.first { $0.name == "listener" }?.value
        }
        if let id = ids.first { listeners.keep(id, for: channel) }
    }

    /// `path` under the station's root, with `begintime` when given and the listener's id
    /// when there is one.
    private func address(_ path: String, begin: Int64?, listener: String? = nil) -> URL {
        let url = base.appendingPathComponent(path)
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var query: [URLQueryItem] = []
        if let begin { query.append(URLQueryItem(name: "begintime", value: String(begin))) }
        if let listener { query.append(URLQueryItem(name: "listener", value: listener)) }
        parts.queryItems = query.isEmpty ? nil : query
        return parts.url ?? url
    }

    /// The body of a 200; any other status is the station's answer as a failure.
    private func get(_ url: URL) async throws(ServiceFailure) -> Data {
        let response = try await perform(HTTPRequest(url: url))
        guard response.status == 200 else { throw StationTransport.failure(status: response.status) }
        return response.body
    }

    /// A word on song `sid` as `listener`, POSTed to the feedback route: the station's
    /// answer, whatever its status.
    private func post(_ url: URL, type: ReportType, sid: String, listener: String?) async throws(ServiceFailure)
        -> HTTPResponse {
        var form = URLComponents()
        form.queryItems = [URLQueryItem(name: "type", value: type.rawValue), URLQueryItem(name: "sid", value: sid)]
        if let listener { form.queryItems?.append(URLQueryItem(name: "listener", value: listener)) }
        // A vote is not sent twice by the HTTP layer: an answer lost may have been counted.
        return try await perform(HTTPRequest(method: "POST", url: url,
                                             headers: [.init("Content-Type", "application/x-www-form-urlencoded")],
                                             body: Data((form.percentEncodedQuery ?? "").utf8), idempotent: false))
    }

    private func perform(_ request: HTTPRequest) async throws(ServiceFailure) -> HTTPResponse {
        do throws(HTTPError) {
            return try await http.perform(request)
        } catch {
            throw StationTransport.failure(error)
        }
    }

    /// The listener id of each channel, shared by the copies of one ``LiveStationHTTP``.
    private final class ListenerIDs: Sendable {
        private let ids = Mutex<[String: String]>([:])

        func id(of channel: String) -> String? { ids.withLock { $0[channel] } }

        func keep(_ id: String, for channel: String) { ids.withLock { $0[channel] = id } }

        func forget(_ channel: String) { ids.withLock { $0[channel] = nil } }
    }
}
