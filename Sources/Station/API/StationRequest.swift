import RadioAPI

/// One request as the station received it, reported to ``StationConfiguration/onRequest``.
public struct StationRequest: Sendable, Equatable {
    /// One `name=value` pair of the query, percent-decoded (`+` read as a space).
    public struct QueryItem: Sendable, Equatable {
        /// The parameter name.
        public var name: String
        /// The parameter value; empty for `name=` and for a bare `name`.
        public var value: String

        /// Creates a pair.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `GET`, `HEAD`, `POST`, …
    public var method: String
    /// The path as sent, without the query and not percent-decoded, so a test can see an
    /// encoded traversal attempt exactly as it arrived.
    public var path: String
    /// The query pairs in the order they were sent, duplicates kept.
    public var query: [QueryItem]

    /// Creates a request record.
    public init(method: String, path: String, query: [QueryItem]) {
        self.method = method
        self.path = path
        self.query = query
    }

    /// Creates a record from a raw query string (`a=1&b=2`, as in a URL).
    init(method: String, path: String, rawQuery: String?) {
        let pairs = rawQuery.map { FormEncoding.decode($0) } ?? []
        self.init(method: method, path: path, query: pairs.map { QueryItem(name: $0.0, value: $0.1) })
    }

    /// The value of the first pair called `name`, or `nil` when the parameter is absent.
    public func parameter(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// ``parameter(_:)``, with an empty value (`name=`) read as absent.
    func nonEmptyParameter(_ name: String) -> String? {
        guard let value = parameter(name), !value.isEmpty else { return nil }
        return value
    }
}
