import Foundation

/// A request to a scrobbling service, as a value: built here, performed by whatever the
/// owner gives the courier (``ScrobbleTransport``), so this target does no I/O.
public struct ScrobbleRequest: Sendable, Equatable {
    /// `GET` or `POST`.
    public var method: String
    /// Absolute URL.
    public var url: URL
    /// Header lines as name/value pairs, in order. May hold a secret (ListenBrainz's
    /// `Authorization`): never log them.
    public var headers: [Header]
    /// The body, if any. May hold secrets (Last.fm's `api_key`, `sk`, `api_sig`): never
    /// log it.
    public var body: Data?
    /// What to call it in a log line: the method name or path, no secret.
    public var label: String

    /// One header line.
    public struct Header: Sendable, Equatable {
        /// Header name.
        public var name: String
        /// Header value.
        public var value: String

        /// Creates a header.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Creates a request.
    public init(method: String, url: URL, headers: [Header] = [], body: Data? = nil, label: String) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.label = label
    }
}

/// What a service answered: the status and the body.
public struct ScrobbleReply: Sendable, Equatable {
    /// The HTTP status.
    public var status: Int
    /// The body.
    public var body: Data

    /// Creates a reply.
    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}

/// Performs a request: the composition root's HTTP client. A failure to get any answer is
/// ``ScrobbleFailure/unreachable(_:)``; any status is a reply.
public protocol ScrobbleTransport: Sendable {
    /// Sends `request` and returns the answer.
    func send(_ request: ScrobbleRequest) async throws(ScrobbleFailure) -> ScrobbleReply
}
