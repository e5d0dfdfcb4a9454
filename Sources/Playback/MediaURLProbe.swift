import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Asks the server for the HTTP status of a media URL that mpv failed to open, when mpv's
/// log did not say it.
///
/// Why this exists: mpv reports a refused URL only as END_FILE `error` -13 ("loading
/// failed"); the status is in ffmpeg's log line "http: HTTP error 403 Forbidden". But
/// ffmpeg's log callback is process-wide, and mpv 0.35 binds it to the first mpv instance
/// that initialized libav and is still alive (`init_libav`/`uninit_libav` in mpv's
/// `common/av_log.c`): every other instance in the process never sees ffmpeg's lines. Seen
/// here when several players ran at once in one test process: "stream: Failed to open …"
/// (mpv's own line) arrived, "HTTP error 404" did not. So when the line is missing, the
/// player asks once itself: `GET` with `Range: bytes=0-0`, the same User-Agent and headers.
struct MediaURLProbe: Sendable {
    /// mpv's `user-agent`, if one was set.
    var userAgent: String?
    /// The extra request headers, `"Name: value"`.
    var headers: [String]
    /// How long to wait for the answer, seconds.
    var timeout: Double

    /// Whether `url` is one this probe can ask about (http or https).
    static func canProbe(_ url: String) -> Bool {
        let lowered = url.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    /// Fetches the status on URLSession's own threads and calls `completion` with it (nil
    /// when there was no HTTP answer at all: refused, timed out, not an HTTP URL).
    func status(of url: String, completion: @escaping @Sendable (Int?) -> Void) {
        guard Self.canProbe(url), let target = URL(string: url) else { return completion(nil) }
        var request = URLRequest(url: target, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "GET"
        request.setValue("bytes=0-0", forHTTPHeaderField: "Range")
        if let userAgent { request.setValue(userAgent, forHTTPHeaderField: "User-Agent") }
        for header in headers {
            guard let colon = header.firstIndex(of: ":") else { continue }
            let name = header[..<colon].trimmingCharacters(in: .whitespaces)
            let value = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            request.setValue(value, forHTTPHeaderField: name)
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        let session = URLSession(configuration: configuration)
        let task = session.dataTask(with: request) { _, response, _ in
            completion((response as? HTTPURLResponse)?.statusCode)
            session.finishTasksAndInvalidate()
        }
        task.resume()
    }
}
