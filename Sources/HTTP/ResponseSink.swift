import CCurl
import Foundation
import Synchronization

/// Collects one transfer's headers and body from libcurl's callbacks and carries the
/// size cap and the cancellation flag into them.
///
/// The callbacks are `@convention(c)` functions: they capture nothing and find this object
/// through the `userdata` pointer libcurl hands back (CURLOPT_WRITEDATA / HEADERDATA /
/// XFERINFODATA). They run on the thread inside `curl_easy_perform`.
final class ResponseSink: Sendable {
    /// Largest body accepted.
    let limit: Int
    /// Where the body goes instead of memory, for a download.
    let file: FileBody?
    /// Told the bytes received so far and the expected total (0 while unknown), at each of
    /// libcurl's progress callbacks (several a second, and after each received chunk).
    let onProgress: (@Sendable (Int64, Int64) -> Void)?
    /// For a download: the transfer stops when no byte arrived for this long (see
    /// ``stalled``).
    let stallTimeout: Duration?
    private let state = Mutex(State())
    private let cancelled = Atomic<Bool>(false)
    private let progressWatch = Mutex<(bytes: Int64, since: ContinuousClock.Instant, stalled: Bool)>((0, .now, false))

    private struct State {
        var body = Data()
        var status = 0
        var headers: [(name: String, value: String)] = []
        var exceededLimit = false
        var setCookie = false
    }

    /// A sink that keeps the body in memory, up to `limit` bytes, or writes it to `file`.
    init(limit: Int, file: FileBody? = nil, onProgress: (@Sendable (Int64, Int64) -> Void)? = nil,
         stallTimeout: Duration? = nil) {
        self.limit = limit
        self.file = file
        self.onProgress = onProgress
        self.stallTimeout = stallTimeout
    }

    /// Whether the transfer was stopped because nothing arrived for ``stallTimeout``.
    var stalled: Bool { progressWatch.withLock { $0.stalled } }

    /// The body received so far.
    var body: Data { state.withLock { $0.body } }
    /// The status of the last response's status line (0 before one arrived).
    var status: Int { state.withLock { $0.status } }
    /// Headers of the last response (earlier ones are dropped at each redirect).
    var headers: [(name: String, value: String)] { state.withLock { $0.headers } }
    /// Whether any response of the transfer, a redirect's included, set a cookie.
    var sawSetCookie: Bool { state.withLock { $0.setCookie } }
    /// Whether the body outgrew `limit`.
    var exceededLimit: Bool { state.withLock { $0.exceededLimit } }
    /// Whether `cancel()` was called.
    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Makes the transfer stop at libcurl's next progress callback.
    func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// CURLOPT_WRITEFUNCTION: "Your callback should return the number of bytes actually
    /// taken care of. If that amount differs from the amount passed to your callback
    /// function, it signals an error condition to the library" — which is how the cap stops
    /// an oversized body (CURLE_WRITE_ERROR).
    static let writeCallback: ccurl_data_cb = { pointer, size, count, userdata in
        guard let userdata else { return 0 }
        let sink = Unmanaged<ResponseSink>.fromOpaque(userdata).takeUnretainedValue()
        let n = size * count
        if let file = sink.file {
            guard let pointer else { return n }
            // The status and headers matter only for the first chunk, which decides where
            // the body goes: later chunks skip copying them.
            if !file.isDecided {
                let (status, headers) = sink.state.withLock { ($0.status, $0.headers) }
                file.decide(status: status, headers: headers)
            }
            return file.take(pointer, count: n) ? n : 0
        }
        return sink.state.withLock { state in
            guard state.body.count + n <= sink.limit else {
                state.exceededLimit = true
                return 0
            }
            if let pointer, n > 0 { state.body.append(UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: n) }
            return n
        }
    }

    /// CURLOPT_HEADERFUNCTION: called once per header line, status lines included; a new
    /// status line starts a new response (after a redirect or a 100 Continue).
    static let headerCallback: ccurl_data_cb = { pointer, size, count, userdata in
        guard let userdata, let pointer else { return 0 }
        let sink = Unmanaged<ResponseSink>.fromOpaque(userdata).takeUnretainedValue()
        let n = size * count
        let line = String(decoding: UnsafeRawBufferPointer(start: pointer, count: n), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        sink.state.withLock { state in
            if line.hasPrefix("HTTP/") {
                state.headers.removeAll()
                // "HTTP/1.1 206 Partial Content", "HTTP/2 200"
                let words = line.split(separator: " ", maxSplits: 2)
                state.status = words.count > 1 ? Int(words[1]) ?? 0 : 0
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                state.headers.append((name, value))
                if name == "set-cookie" { state.setCookie = true }
            }
        }
        return n
    }

    /// CURLOPT_XFERINFOFUNCTION: "Returning a non-zero value from this callback will cause
    /// libcurl to abort the transfer and return CURLE_ABORTED_BY_CALLBACK."
    static let progressCallback: ccurl_xferinfo_cb = { userdata, total, now, _, _ in
        guard let userdata else { return 0 }
        let sink = Unmanaged<ResponseSink>.fromOpaque(userdata).takeUnretainedValue()
        sink.onProgress?(Int64(now), Int64(total))
        if let limit = sink.stallTimeout {
            // libcurl calls this "at least once per second" while a transfer lasts
            // (CURLOPT_XFERINFOFUNCTION(3)), bytes or not, so a silent server is noticed on
            // time. (CURLOPT_LOW_SPEED_TIME averages over a window of several seconds: the
            // bytes before a stall would hide it for that long.)
            let stalled = sink.progressWatch.withLock { watch -> Bool in
                let instant = ContinuousClock.now
                if Int64(now) != watch.bytes {
                    watch.bytes = Int64(now)
                    watch.since = instant
                } else if instant - watch.since > limit {
                    watch.stalled = true
                }
                return watch.stalled
            }
            if stalled { return 1 }
        }
        return sink.isCancelled ? 1 : 0
    }
}
