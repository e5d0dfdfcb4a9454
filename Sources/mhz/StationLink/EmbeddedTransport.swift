import Foundation
import Logging
import Radio
import RadioAPI
import Station
import StationLink

/// RadioAPI's requests answered by the embedded station in this process, with no server
/// and no socket (``Station/respond(method:path:query:body:)``). The station gives song
/// links to its files (`file://`), which the player opens directly.
///
/// Everything else is as over the network: the same endpoints build the requests, the same
/// decoder reads the answers, a status outside 2xx is the same failure, and each request is
/// logged the same way, redacted.
struct EmbeddedTransport: APITransport {
    /// The station, created by the runtime and never started as a server.
    let station: Station
    /// Where requests are logged (at debug level; failures as warnings).
    let logger: Logger

    /// Hands the request to the station and returns the body of a 2xx answer.
    ///
    /// - Throws: ``ServiceFailure/httpStatus(_:)`` for a 404 (a path the station does not
    ///   serve) or a 500 (its storage failed), as ``StationTransport`` would.
    func perform(_ request: APIRequest) async throws(ServiceFailure) -> Data {
        let line = LogRedaction.describe(request)
        // The URL the endpoint parsed: its path and query are read off it, not parsed again.
        let reply = await station.respond(method: request.method.rawValue, path: request.url.path(percentEncoded: false),
                                          query: request.url.query(percentEncoded: true), body: request.body ?? Data())
        guard (200..<300).contains(reply.status) else {
            logger.warning("\(line) → \(reply.status) in process")
            throw StationTransport.failure(status: reply.status)
        }
        logger.debug("\(line) → \(reply.status) in process, \(reply.body.count) bytes")
        return reply.body
    }
}
