import Backoff

/// Why a scrobble did not reach its service, in the courier's terms: is it kept and tried
/// again, dropped, or does the service refuse everything until the listener acts.
public enum ScrobbleFailure: Error, Sendable, Equatable {
    /// No answer (no connection, timeout, TLS): kept, tried again later.
    case unreachable(String)
    /// The service is there but not now (a status that may pass by `Backoff`'s one rule,
    /// ``StatusVerdict/mayPassLater``: 408, 429, 5xx; Last.fm's errors 8, 11, 16, 29): kept,
    /// tried again later.
    case busy(status: Int, message: String)
    /// The service refuses who is asking (ListenBrainz 401, Last.fm's errors 4, 9, 10, 13,
    /// 14, 15, 26: a bad token, key, signature or session): kept, and the line waits for
    /// the next run, when the listener may have logged in again.
    case credentials(status: Int, message: String)
    /// The service refused this request for good (another 4xx, Last.fm's other errors):
    /// that scrobble is dropped.
    case refused(status: Int, message: String)
    /// The answer could not be read (not the service's JSON): kept, tried again later.
    case badAnswer(String)
    /// The outbox could not be read or written (SQLite's words); `diskFull` when there was
    /// no room, which passes.
    case storage(String, diskFull: Bool)

    /// A service's error status with nothing more to go on: ``busy(status:message:)`` when
    /// it may pass (``StatusVerdict/mayPassLater``), else ``refused(status:message:)``.
    public init(status: Int, message: String) {
        self = StatusVerdict(status: status).mayPassLater
            ? .busy(status: status, message: message) : .refused(status: status, message: message)
    }

    /// Whether the scrobble stays in the outbox to be tried again.
    public var keepsScrobble: Bool {
        switch self {
        case .unreachable, .busy, .credentials, .badAnswer, .storage: true
        case .refused: false
        }
    }

    /// Whether the service will refuse everything else this run too.
    public var stopsLine: Bool {
        if case .credentials = self { return true }
        return false
    }
}
