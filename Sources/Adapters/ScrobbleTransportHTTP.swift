import Foundation
import HTTP
import Logging
import Scrobble

/// Scrobble's requests go to libcurl as Scrobble built them (the conformance is made here,
/// where both layers are seen). Never sent again by the HTTP layer at once: the courier
/// keeps what failed and tries it later, as one scrobble.
extension ScrobbleRequest: PerformableRequest {
    /// ``ScrobbleRequest/method``.
    public var methodName: String { method }
    /// ``ScrobbleRequest/headers`` as name/value pairs.
    public var headerFields: [(name: String, value: String)] { headers.map { ($0.name, $0.value) } }
    /// A submission is not sent twice by the HTTP layer; a validation (GET) may be.
    public var idempotent: Bool { method == "GET" }
}

/// The courier's ``ScrobbleTransport`` over libcurl. Logs each call by its label and
/// status only: the headers and body hold the token, key, session and signature.
public struct ScrobbleTransportHTTP: ScrobbleTransport {
    /// The client (the configuration's proxy, TLS checks and timeouts).
    public let http: HTTPClient
    /// Where calls are logged.
    public let logger: Logger

    /// A transport over `http`, logging to `logger`.
    public init(http: HTTPClient, logger: Logger) {
        self.http = http
        self.logger = logger
    }

    /// Performs the request; no answer is ``ScrobbleFailure/unreachable(_:)``.
    public func send(_ request: ScrobbleRequest) async throws(ScrobbleFailure) -> ScrobbleReply {
        do throws(HTTPError) {
            let response = try await http.perform(request)
            logger.debug("scrobble \(request.url.host ?? "") \(request.label): \(response.status)")
            return ScrobbleReply(status: response.status, body: response.body)
        } catch {
            logger.debug("scrobble \(request.url.host ?? "") \(request.label): \(error)")
            switch error {
            case .transport(let code, let detail), .tls(let code, let detail):
                throw .unreachable(detail.isEmpty ? code.description : detail)
            default:
                throw .unreachable("\(error)")
            }
        }
    }
}
