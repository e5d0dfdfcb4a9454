import Foundation
import Radio
import RadioAPI

/// Carries RadioAPI's requests to a station and brings back the body of a successful
/// answer, with failures in the radio's terms. Over the network it is ``StationTransport``
/// (libcurl); to the embedded station in the same process it is ``EmbeddedTransport``.
public protocol APITransport: Sendable {
    /// Performs a request and returns the body of a 2xx answer.
    func perform(_ request: APIRequest) async throws(ServiceFailure) -> Data
}
