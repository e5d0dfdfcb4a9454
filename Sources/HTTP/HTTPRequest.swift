import Foundation

/// A request for the HTTP layer to perform, as its own callers (media probes, covers,
/// downloads) make them. Deliberately plain (method, URL, headers, body) so that it knows
/// nothing of radio APIs; those are performed as they are (``PerformableRequest``).
public struct HTTPRequest: PerformableRequest, Equatable {
    /// `GET`, `POST`, `HEAD`, …
    public var method: String
    /// Absolute http(s) URL.
    public var url: URL
    /// Header lines as name/value pairs, sent in order.
    public var headers: [Header]
    /// The request body, if any.
    public var body: Data?
    /// Whether the request may be retried when it fails transiently. Never true for a
    /// login: a retried login can lock an account or count as two failures.
    public var idempotent: Bool

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

    /// Creates a request. `idempotent` defaults to true for GET and HEAD only.
    public init(method: String = "GET", url: URL, headers: [Header] = [], body: Data? = nil,
                idempotent: Bool? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.idempotent = idempotent ?? (method == "GET" || method == "HEAD")
    }

    /// ``method``.
    public var methodName: String { method }

    /// ``headers`` as name/value pairs.
    public var headerFields: [(name: String, value: String)] { headers.map { ($0.name, $0.value) } }
}

/// What came back.
public struct HTTPResponse: Sendable, Equatable {
    /// The final status code (after redirects).
    public var status: Int
    /// Response headers of the final response, names lowercased, in order.
    public var headers: [(name: String, value: String)]
    /// The body, decompressed.
    public var body: Data
    /// The URL after redirects.
    public var effectiveURL: URL?

    /// Creates a response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data, effectiveURL: URL? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.effectiveURL = effectiveURL
    }

    /// The first value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name == lower }?.value
    }

    public static func == (a: HTTPResponse, b: HTTPResponse) -> Bool {
        a.status == b.status && a.body == b.body && a.effectiveURL == b.effectiveURL
            && a.headers.map { "\($0.name):\($0.value)" } == b.headers.map { "\($0.name):\($0.value)" }
    }
}
