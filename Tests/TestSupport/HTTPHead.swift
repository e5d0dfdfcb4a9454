import Foundation

/// The head of an HTTP/1.1 request or answer as a ``FaultProxy`` reads it: its first line,
/// its header lines, and what the proxy needs of them.
struct HTTPHead {
    /// The request line or status line.
    var firstLine: String
    /// Header lines in order, as sent.
    var headers: [String]

    /// Parses `bytes` (up to and including the blank line); nil when it has no first line.
    init?(_ bytes: Data) {
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard let first = lines.first else { return nil }
        firstLine = first
        headers = Array(lines.dropFirst())
    }

    /// The value of a header, by case-insensitive name.
    func value(_ name: String) -> String? {
        for line in headers {
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name else { continue }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// A request's `Content-Length`, 0 without one.
    var contentLength: Int { value("content-length").flatMap(Int.init) ?? 0 }

    /// A request's target without its query.
    var path: String {
        let target = firstLine.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        return String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "/")
    }

    /// A request's query string, "" without one.
    var query: String {
        let target = firstLine.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count > 1 ? String(parts[1]) : ""
    }

    /// The head again, with `Connection: close` in place of whatever connection management
    /// it asked for, so each connection carries exactly one request.
    func closing() -> Data {
        let hopByHop = ["connection", "keep-alive", "proxy-connection"]
        let kept = headers.filter { line in
            !hopByHop.contains(line.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? "")
        }
        return Data(([firstLine] + kept + ["Connection: close", "", ""]).joined(separator: "\r\n").utf8)
    }

    /// The reason phrase of the statuses a proxy answers with itself.
    static func reason(_ status: Int) -> String {
        switch status {
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Error"
        }
    }
}
