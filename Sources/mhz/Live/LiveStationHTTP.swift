import Foundation
import HLSPlaylist
import HTTP
import Radio
import RadioAPI
import StationLink

/// The radio's ``LiveStation`` port over a station's live routes (docs/PROTOCOL.md §11),
/// read with libcurl and the playlist parser: the two layers the radio does not import.
struct LiveStationHTTP: LiveStation {
    /// The station's root: `--server`, or the embedded station's loopback address.
    let base: URL
    /// The client the requests go through (no session: the live routes carry no password).
    let http: HTTPClient
    /// The listener as the station counts it (`login=`): on every playlist read, the
    /// stream mpv plays (the master playlist carries it on to the variants) and the
    /// feedback, so this mhz is one listener, not one per address and one per vote.
    let login: String

    /// The variant whose playlist is read for the window: the variants' segments share
    /// their boundaries, sequence numbers and dates, so any one tells them all.
    static let variant = 128

    func window(channel: String, from begin: Int64?) async throws(ServiceFailure) -> LiveWindow {
        let url = address("live/\(channel)/\(Self.variant).m3u8", begin: begin)
        let body = try await get(url)
        let playlist: Playlist
        do throws(PlaylistError) {
            playlist = try PlaylistParser.parse(body, url: url)
        } catch {
            throw .malformed("\(url.path): \(error)")
        }
        guard case .media(let media) = playlist else {
            throw .malformed("\(url.path) is a master playlist, not a media playlist")
        }
        let dated = media.segments.compactMap { segment in
            segment.programDateTime.map { (start: Self.milliseconds($0), duration: segment.duration) }
        }
        guard dated.count == media.segments.count, let first = dated.first, let last = dated.last else {
            throw .malformed("\(url.path) lists no segments, or one without EXT-X-PROGRAM-DATE-TIME")
        }
        let join = dated[max(0, dated.count - 3)]
        return LiveWindow(firstStart: first.start, joinStart: join.start,
                          newestEnd: last.start + Int64((last.duration * 1000).rounded()))
    }

    func aired(channel: String) async throws(ServiceFailure) -> [AiredSong] {
        let url = address("live/\(channel)/aired.json", begin: nil, login: false)
        let body = try await get(url)
        do {
            return try JSONDecoder().decode(AiredList.self, from: body).songs.map {
                AiredSong(sid: $0.sid, title: $0.title, artist: $0.artist, start: $0.start, end: $0.end, url: $0.url)
            }
        } catch {
            throw .malformed("\(url.path): \(error)")
        }
    }

    func streamURL(channel: String, from begin: Int64) -> String {
        address("live/\(channel).m3u8", begin: begin).absoluteString
    }

    func feedback(channel: String, type: ReportType, sid: String) async throws(ServiceFailure) -> LiveTally {
        let url = address("live/\(channel)/feedback", begin: nil, login: false)
        var form = URLComponents()
        form.queryItems = [URLQueryItem(name: "type", value: type.rawValue), URLQueryItem(name: "sid", value: sid),
                           URLQueryItem(name: "login", value: login)]
        let body = try await get(url, form: Data((form.percentEncodedQuery ?? "").utf8))
        do {
            let answer = try JSONDecoder().decode(Tally.self, from: body)
            return LiveTally(onAir: answer.on_air, votes: answer.votes, listeners: answer.listeners, ending: answer.ending,
                             ended: answer.ended ?? false)
        } catch {
            throw .malformed("\(url.path): \(error)")
        }
    }

    /// `path` under the station's root, with `begintime` when given and the listener's
    /// `login` when asked.
    private func address(_ path: String, begin: Int64?, login: Bool = true) -> URL {
        let url = base.appendingPathComponent(path)
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var query: [URLQueryItem] = []
        if let begin { query.append(URLQueryItem(name: "begintime", value: String(begin))) }
        if login { query.append(URLQueryItem(name: "login", value: self.login)) }
        parts.queryItems = query.isEmpty ? nil : query
        return parts.url ?? url
    }

    /// The body of a 200; any other status is the station's answer as a failure.
    private func get(_ url: URL, form: Data? = nil) async throws(ServiceFailure) -> Data {
        let response: HTTPResponse
        // A vote is not sent twice: an answer lost may have been counted.
        let request = form.map {
            HTTPRequest(method: "POST", url: url, headers: [.init("Content-Type", "application/x-www-form-urlencoded")],
                        body: $0, idempotent: false)
        } ?? HTTPRequest(url: url)
        do throws(HTTPError) {
            response = try await http.perform(request)
        } catch {
            throw StationTransport.failure(error)
        }
        guard response.status == 200 else { throw StationTransport.failure(status: response.status) }
        return response.body
    }

    private static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// The feedback's answer as the station writes it.
    private struct Tally: Decodable {
        var on_air: Bool
        var votes: Int
        var listeners: Int
        var ending: Bool
        /// Absent from a station before it was sent.
        var ended: Bool?
    }

    /// `aired.json` as the station writes it.
    private struct AiredList: Decodable {
        struct Song: Decodable {
            var sid: String
            var title: String
            var artist: String
            var start: Int64
            var end: Int64
            var url: String
        }
        var songs: [Song]
    }
}
