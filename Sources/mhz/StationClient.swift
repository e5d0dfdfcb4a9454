import Foundation
import HTTP
import Radio
import RadioAPI

/// The radio's ``RadioService`` over a real server: RadioAPI builds the request and
/// decodes the answer, the HTTP layer performs it. The only place that sees both, so the
/// network layers stay ignorant of each other and of the radio.
struct StationClient: RadioService {
    let http: HTTPClient
    let endpoints: AppEndpoints

    func channels() async throws(ServiceFailure) -> [ChannelInfo] {
        let body = try await perform(endpoints.channels())
        do {
            return try APIDecoder.channels(body).map { ChannelInfo(id: $0.id, name: $0.name) }
        } catch {
            throw Self.failure(error)
        }
    }

    func send(_ report: Report) async throws(ServiceFailure) -> [Track] {
        let body = try await perform(endpoints.playlist(report))
        do {
            return try APIDecoder.playlist(body, for: report.type).songs
                .filter { !$0.isAdvertisement }
                .map(Self.track)
        } catch {
            throw Self.failure(error)
        }
    }

    /// Performs a request; any non-2xx status is a failure of its own kind (a 502 from a
    /// proxy says more than the HTML page that comes with it).
    private func perform(_ request: APIRequest) async throws(ServiceFailure) -> Data {
        let httpRequest = HTTPRequest(
            method: request.method.rawValue, url: request.url,
            headers: request.headers.map { HTTPRequest.Header($0.name, $0.value) }, body: request.body,
            idempotent: !request.isLogin)
        let response: HTTPResponse
        do {
            response = try await http.perform(httpRequest)
        } catch {
            switch error {
            case .transport(_, let detail): throw .unreachable(detail)
            case .responseTooLarge(let limit): throw .malformed("answer larger than \(limit / 1_048_576) MB")
            case .invalidURL(let url): throw .unreachable("invalid URL \(url)")
            case .setup(let detail): throw .unreachable(detail)
            case .cancelled: throw .unreachable("cancelled")
            case .storage(let detail): throw .unreachable(detail)
            }
        }
        guard (200..<300).contains(response.status) else { throw .httpStatus(response.status) }
        return response.body
    }

    static func failure(_ error: APIError) -> ServiceFailure {
        switch error {
        case .emptyBody: .malformed("empty answer")
        case .notJSON(let prefix): .malformed("not JSON: \(prefix)")
        case .malformed(let what): .malformed(what)
        case .invalidEncoding: .malformed("not UTF-8")
        case .server(let word): .rejected(word)
        case .refused(_, let message): .rejected(message)
        case .expired: .expired
        }
    }

    static func track(_ song: Song) -> Track {
        Track(sid: song.sid, title: song.title, artist: song.artist, album: song.albumTitle,
              year: song.publicTime, kbps: song.kbps, length: Double(song.length), liked: song.like, url: song.url,
              picture: song.picture)
    }
}
