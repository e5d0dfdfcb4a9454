import Foundation
import Synchronization

/// One request as a test server saw it.
public struct RecordedRequest: Sendable, Equatable {
    /// `GET`, `POST`, …
    public var method: String
    /// The path without the query.
    public var path: String
    /// The query pairs, decoded, in order.
    public var query: [(String, String)]
    /// Request headers, names lowercased.
    public var headers: [String: String]

    /// The first value of a query parameter.
    public func parameter(_ name: String) -> String? { query.first { $0.0 == name }?.1 }

    /// Creates a record.
    public init(method: String, path: String, query: [(String, String)], headers: [String: String]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
    }

    public static func == (a: RecordedRequest, b: RecordedRequest) -> Bool {
        a.method == b.method && a.path == b.path && a.headers == b.headers
            && a.query.map { "\($0.0)=\($0.1)" } == b.query.map { "\($0.0)=\($0.1)" }
    }
}

/// A thread-safe list of the requests a test server received, in arrival order.
public final class RequestRecorder: Sendable {
    private let requests = Mutex<[RecordedRequest]>([])

    /// Creates an empty recorder.
    public init() {}

    /// Appends a request.
    public func record(_ request: RecordedRequest) { requests.withLock { $0.append(request) } }

    /// Everything recorded so far.
    public var all: [RecordedRequest] { requests.withLock { $0 } }

    /// The requests to one path.
    public func requests(to path: String) -> [RecordedRequest] { all.filter { $0.path == path } }

    /// Forgets everything recorded so far.
    public func reset() { requests.withLock { $0.removeAll() } }
}
