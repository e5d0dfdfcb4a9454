import Foundation
import HTTP
import Logging
import Radio
import RadioAPI

/// Performs RadioAPI's requests over the HTTP layer and says what went wrong in the radio's
/// terms (``ServiceFailure``). Every request is logged here, redacted: tokens, `ck` and
/// passwords never reach the log, bodies are never written, cookies never seen.
public struct StationTransport: APITransport {
    /// The client, with the cookie jar for the web family.
    public let http: HTTPClient
    /// Where requests are logged (at debug level; failures as warnings).
    public let logger: Logger

    /// A transport over `http`, logging to `logger`.
    public init(http: HTTPClient, logger: Logger) {
        self.http = http
        self.logger = logger
    }

    /// Performs a request and returns the body of a 2xx answer.
    ///
    /// - Throws: ``ServiceFailure/unreachable(_:)`` when no answer came (after the HTTP
    ///   layer's retries), ``ServiceFailure/untrusted(_:)`` when the server's certificate
    ///   did not verify, ``ServiceFailure/busy(_:)`` for a status that means "not now"
    ///   and ``ServiceFailure/httpStatus(_:)`` for any other (see ``failure(status:)``),
    ///   ``ServiceFailure/malformed(_:)`` for an answer over the size cap.
    public func perform(_ request: APIRequest) async throws(ServiceFailure) -> Data {
        let line = LogRedaction.describe(request)
        let started = ContinuousClock.now
        let response: HTTPResponse
        do {
            response = try await http.perform(request)
        } catch {
            logger.warning("\(line) failed: \(error)")
            throw Self.failure(error)
        }
        let milliseconds = Int((ContinuousClock.now - started) / .milliseconds(1))
        guard (200..<300).contains(response.status) else {
            logger.warning("\(line) → HTTP \(response.status) (\(milliseconds) ms)")
            throw Self.failure(status: response.status)
        }
        logger.debug("\(line) → HTTP \(response.status), \(response.body.count) bytes (\(milliseconds) ms)")
        return response.body
    }

    /// The radio's name for a non-2xx status (``ServiceFailure/init(status:)``: "not now"
    /// is ``ServiceFailure/busy(_:)``, anything else ``ServiceFailure/httpStatus(_:)``),
    /// beside ``failure(_:)``, its name for no answer.
    public static func failure(status: Int) -> ServiceFailure { ServiceFailure(status: status) }

    /// The radio's name for a transport failure. Every failure in which no answer came is
    /// ``ServiceFailure/unreachable(_:)`` (a certificate that did not verify,
    /// ``ServiceFailure/untrusted(_:)``), whether or not the HTTP layer retried it: the
    /// station never saw the request.
    public static func failure(_ error: HTTPError) -> ServiceFailure {
        switch error {
        case .transport(_, let detail): .unreachable(detail)
        case .tls(_, let detail): .untrusted(detail)
        case .responseTooLarge(let limit): .malformed("answer larger than \(limit / 1_048_576) MB")
        case .invalidURL(let url): .unreachable("invalid URL \(url)")
        case .setup(let detail): .unreachable(detail)
        case .cancelled: .unreachable("cancelled")
        case .storage(let detail): .unreachable(detail)
        // Only downloads write bodies to files or ask for ranges; API requests never do.
        case .fileWrite(let code): .unreachable(String(cString: strerror(code)))
        case .rangeMismatch(let range): .malformed("unexpected Content-Range \(range)")
        }
    }

    /// The radio's name for an undecodable or refused answer.
    public static func failure(_ error: APIError) -> ServiceFailure {
        switch error {
        case .emptyBody: .malformed("empty answer")
        case .notJSON(let prefix): .malformed("not JSON: \(prefix)")
        case .malformed(let what): .malformed(what)
        case .invalidEncoding: .malformed("not UTF-8")
        case .server(let word): .rejected(word)
        case .refused(let code, let message):
            .rejected([message, code.map { "error \($0)" }].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", "))
        case .expired: .expired
        }
    }
}
