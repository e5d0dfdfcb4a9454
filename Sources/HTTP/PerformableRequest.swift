import Foundation

/// What the HTTP layer performs: a method, an absolute http(s) URL, header lines, a body,
/// and whether the request may be sent again.
///
/// A protocol rather than one struct so that a layer above can describe its requests
/// without importing this one and have them performed as they are, never copied into
/// another value: ``HTTPRequest`` is this layer's own; RadioAPI's `APIRequest` is given
/// this conformance by the composition root, which alone sees both layers.
public protocol PerformableRequest: Sendable {
    /// `GET`, `POST`, `HEAD`, … as sent.
    var methodName: String { get }
    /// Absolute http(s) URL; libcurl is given its text.
    var url: URL { get }
    /// Header lines as name/value pairs, sent in order.
    var headerFields: [(name: String, value: String)] { get }
    /// The request body, if any.
    var body: Data? { get }
    /// Whether the request may be retried when it fails transiently (``RetryPolicy``).
    var idempotent: Bool { get }
}
