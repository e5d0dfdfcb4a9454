import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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

/// GET requests through URLSession (FoundationNetworking, libcurl underneath), with no
/// cache, so each call reaches the station.
enum HTTPFetch {
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()

    /// Performs a request.
    static func get(_ url: URL, headers: [String: String] = [:], method: String = "GET") async throws -> Fetched {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw FetchError.notHTTP }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return Fetched(status: http.statusCode, headers: fields, body: data)
    }

    /// POSTs a form body (`application/x-www-form-urlencoded`) to a path below a base URL.
    static func post(_ base: URL, _ pathAndQuery: String, form: String) async throws -> Fetched {
        var request = URLRequest(url: URL(string: base.absoluteString + pathAndQuery)!)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(form.utf8)
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw FetchError.notHTTP }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return Fetched(status: http.statusCode, headers: fields, body: data)
    }

    /// GETs a path (with query) below a base URL.
    static func get(_ base: URL, _ pathAndQuery: String, headers: [String: String] = [:]) async throws -> Fetched {
        try await get(URL(string: base.absoluteString + pathAndQuery)!, headers: headers)
    }
}
