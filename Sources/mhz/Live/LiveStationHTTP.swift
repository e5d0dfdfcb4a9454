import Foundation
import HLSPlaylist
import HTTP
import Radio
import StationLink

/// The radio's ``LiveStation`` port over a station's live routes (docs/PROTOCOL.md §11),
/// read with libcurl and the playlist parser: the two layers the radio does not import.
struct LiveStationHTTP: LiveStation {
    /// The station's root: `--server`, or the embedded station's loopback address.
    let base: URL
    /// The client the requests go through (no session: the live routes carry no login).
    let http: HTTPClient

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
        let url = address("live/\(channel)/aired.json", begin: nil)
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

    /// `path` under the station's root, with `begintime` when given.
    private func address(_ path: String, begin: Int64?) -> URL {
        let url = base.appendingPathComponent(path)
        guard let begin, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        parts.queryItems = [URLQueryItem(name: "begintime", value: String(begin))]
        return parts.url ?? url
    }

    /// The body of a 200; any other status is the station's answer as a failure.
    private func get(_ url: URL) async throws(ServiceFailure) -> Data {
        let response: HTTPResponse
        do throws(HTTPError) {
            response = try await http.perform(HTTPRequest(url: url))
        } catch {
            throw StationTransport.failure(error)
        }
        guard response.status == 200 else { throw StationTransport.failure(status: response.status) }
        return response.body
    }

    private static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

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
