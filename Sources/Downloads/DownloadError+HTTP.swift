import Foundation
import HTTP

extension DownloadError {
    /// A failed request of the HTTP layer as a task's reason, when no file was being
    /// written (a playlist, a key) or ``BodyFetch`` already dealt with the file: a stall
    /// after `stallTimeout` seconds, a network failure in libcurl's words.
    static func transport(_ error: HTTPError, stallTimeout: Double) -> DownloadError {
        switch error {
        case .transport(let code, let detail): code == .timedOut ? .stalled(seconds: stallTimeout) : .network(detail: detail)
        case .tls(_, let detail): .network(detail: detail)
        case .invalidURL(let url): .invalidURL(url)
        case .cancelled: .network(detail: "cancelled")
        case .responseTooLarge, .setup, .storage, .fileWrite, .rangeMismatch: .network(detail: "\(error)")
        }
    }
}

extension HTTPClient {
    /// A small resource read whole into memory (a playlist, a key, a cover): the answer when
    /// it is a `200`, else ``DownloadError/httpStatus(_:)``; a request that failed is the
    /// task's reason, a stall counted against the client's total timeout.
    func document(_ url: URL) async throws(DownloadError) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await perform(HTTPRequest(url: url))
        } catch {
            throw .transport(error, stallTimeout: configuration.totalTimeout)
        }
        guard response.status == 200 else { throw .httpStatus(response.status) }
        return response
    }
}
