import Foundation
import HTTP

/// One HTTP answer as a test sees it.
struct Fetched: Sendable {
    /// The status code.
    var status: Int
    /// Response headers, names lowercased.
    var headers: [String: String]
    /// The body bytes.
    var body: Data

    /// The body as UTF-8 text.
    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed with JSONSerialization, so tests can check JSON types (NSNumber vs
    /// String) exactly as a client in any language would see them.
    func jsonObject() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw FetchError.notAnObject(text)
        }
        return object
    }
}

/// Failures of the test HTTP helpers.
enum FetchError: Error {
    case notHTTP
    case notAnObject(String)
    case socket(String)
}

/// Requests through the project's own libcurl client (the HTTP target), with no retries,
/// no redirects and no cookies, so each call reaches the station once and the answer is
/// the station's own.
///
/// Not URLSession: on Linux it watches its sockets with libdispatch sources, and the churn
/// of many sockets opened and closed side by side in a full test run is what corrupts
/// libdispatch's epoll bookkeeping (swift-corelibs-libdispatch#949; the test process once
/// crashed in `_dispatch_event_loop_drain`). libcurl's easy interface blocks on a thread
/// of its own and registers nothing with libdispatch.
enum HTTPFetch {
    private static let client = HTTPClient(configuration: HTTPConfiguration(
        connectTimeout: 30, totalTimeout: 120, maxResponseBytes: 1 << 30, maxRedirects: 0, retry: .never))

    /// Performs a request.
    static func get(_ url: URL, headers: [String: String] = [:], method: String = "GET") async throws -> Fetched {
        try await perform(HTTPRequest(method: method, url: url, headers: headers.map { .init($0.key, $0.value) }))
    }

    /// POSTs a form body (`application/x-www-form-urlencoded`) to a path below a base URL.
    static func post(_ base: URL, _ pathAndQuery: String, form: String) async throws -> Fetched {
        try await perform(HTTPRequest(
            method: "POST", url: URL(string: base.absoluteString + pathAndQuery)!,
            headers: [.init("Content-Type", "application/x-www-form-urlencoded")], body: Data(form.utf8)))
    }

    /// GETs a path (with query) below a base URL.
    static func get(_ base: URL, _ pathAndQuery: String, headers: [String: String] = [:]) async throws -> Fetched {
        try await get(URL(string: base.absoluteString + pathAndQuery)!, headers: headers)
    }

    private static func perform(_ request: HTTPRequest) async throws -> Fetched {
        let response = try await client.perform(request)
        var fields: [String: String] = [:]
        for (name, value) in response.headers { fields[name.lowercased()] = value }
        return Fetched(status: response.status, headers: fields, body: response.body)
    }
}
