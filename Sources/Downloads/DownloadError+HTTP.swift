import HTTP

extension DownloadError {
    /// A failed request of the HTTP layer as a task's reason, when no file was being
    /// written (a playlist, a key) or the caller already dealt with the file (a segment's
    /// piece): a stall after `stallTimeout` seconds, a network failure in libcurl's words.
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
