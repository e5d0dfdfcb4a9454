import Foundation
import Synchronization

/// Performs HTTP requests with libcurl, off the caller's task.
///
/// Easy handles are pooled and reused, so connections to a server stay open between
/// requests. Each request runs its blocking `curl_easy_perform` on a thread of its own:
/// a dispatch queue would run only as many at once as there are cores, so one hanging
/// server could hold back every other request (a skip's report behind a stalled fetch).
/// Cancelling the calling task aborts the transfer at libcurl's next progress callback.
///
/// Transient failures of idempotent requests are retried here, with backoff, as
/// ``HTTPConfiguration/retry`` decides; callers see one answer per request.
public final class HTTPClient: Sendable {
    /// The settings every request uses.
    public let configuration: HTTPConfiguration
    /// The cookies every request sends and updates, if the client keeps any.
    public let cookieJar: CookieJar?
    private let pool = Mutex<[PooledHandle]>([])

    /// A handle is only ever used by one thread at a time: it is taken out of the pool for
    /// the duration of a request and put back afterwards.
    private struct PooledHandle: @unchecked Sendable { let easy: CurlEasy }

    /// Creates a client.
    ///
    /// - Parameter cookieJar: cookies to keep between requests (the web API family's
    ///   session); without one, no cookies are sent or kept.
    public init(configuration: HTTPConfiguration = HTTPConfiguration(), cookieJar: CookieJar? = nil) {
        self.configuration = configuration
        self.cookieJar = cookieJar
    }

    /// Performs a request and returns the response, whatever its status, after retrying
    /// transient failures of an idempotent request.
    ///
    /// - Returns: the last response; a transient status (503, 429) comes back as a
    ///   response once the retries are used up.
    /// - Throws: ``HTTPError`` when no response came: transport failure, timeout, cap
    ///   exceeded, cancellation.
    public func perform(_ request: some PerformableRequest) async throws(HTTPError) -> HTTPResponse {
        var retries = 0
        while true {
            let outcome = await performOnce(request)
            guard let delay = configuration.retry.delay(after: outcome, of: request, retriesSoFar: retries) else {
                return try outcome.get()
            }
            retries += 1
            do {
                try await Task.sleep(for: .milliseconds(Int(delay * 1000)))
            } catch {
                throw .cancelled
            }
        }
    }

    /// One attempt, on a thread of its own.
    private func performOnce(_ request: some PerformableRequest) async -> Result<HTTPResponse, HTTPError> {
        let sink = ResponseSink(limit: configuration.maxResponseBytes)
        let result: Result<HTTPResponse, HTTPError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    continuation.resume(returning: self.performBlocking(request, sink: sink))
                }
                thread.name = "mhz.http"
                thread.start()
            }
        } onCancel: {
            sink.cancel()
        }
        return result
    }

    /// Downloads `download.request` into its file, once (the caller decides about retries:
    /// a download keeps what it has and continues later, which a quick retry here would not
    /// improve). Each byte goes to the file as it arrives; `progress` is told the bytes
    /// this transfer received and the body's length (0 while unknown), several times a second,
    /// and once more when a transfer that announced its length fails.
    ///
    /// - Throws: ``HTTPError/fileWrite(errno:)`` when the file could not take the bytes,
    ///   ``HTTPError/rangeMismatch(answered:)`` for a 206 that does not continue the file,
    ///   ``HTTPError/transport(_:detail:)`` when the connection failed or stalled for
    ///   ``FileDownload/stallTimeout``, ``HTTPError/cancelled``.
    public func download(_ download: FileDownload, progress: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in })
        async throws(HTTPError) -> FileDownloadResult
    {
        var request = download.request
        if let range = download.rangeHeader { request.headers.append(.init("Range", range)) }
        let file = FileBody(descriptor: download.descriptor, resumeOffset: download.resumeOffset,
                            refusedTypes: download.refusedContentTypes, byteRange: download.byteRange)
        let sink = ResponseSink(limit: .max, file: file, onProgress: progress,
                                stallTimeout: .milliseconds(Int64(download.stallTimeout * 1000)))
        let stall = download.stallTimeout, ranged = request
        let result: Result<HTTPResponse, HTTPError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    continuation.resume(returning: self.performBlocking(ranged, sink: sink, stallTimeout: stall))
                }
                thread.name = "mhz.download"
                thread.start()
            }
        } onCancel: {
            sink.cancel()
        }
        // What was gathered goes to the file whatever ended the transfer: those bytes are good.
        let flushed = file.flush()
        if case .failure = result, let length = sink.headers.last(where: { $0.name == "content-length" })
            .flatMap({ Int64($0.value) }), length > 0 {
            // libcurl can read a short body's last bytes and the connection's end in one go
            // and fail with CURLE_PARTIAL_FILE before any progress callback told the length:
            // the caller learns it here, to say how much is missing.
            progress(file.written, length)
        }
        let response = try result.get()
        guard flushed else { throw .fileWrite(errno: file.writeErrno) }
        return FileDownloadResult(status: response.status,
                                  headers: response.headers.map { HTTPHeaderLine(name: $0.name, value: $0.value) },
                                  effectiveURL: response.effectiveURL, wroteFile: file.wroteFile, written: file.written,
                                  restartedFromZero: file.restartedFromZero, sliced: file.sliced, unwrittenBody: file.kept)
    }

    private func performBlocking(_ request: some PerformableRequest, sink: ResponseSink,
                                 stallTimeout: Double? = nil) -> Result<HTTPResponse, HTTPError> {
        if sink.isCancelled { return .failure(.cancelled) }
        let reused = pool.withLock { $0.popLast()?.easy }
        do throws(HTTPError) {
            let easy: CurlEasy
            if let reused { easy = reused } else { easy = try CurlEasy() }
            defer { pool.withLock { $0.append(PooledHandle(easy: easy)) } }
            let response = try easy.perform(request, configuration: configuration, jar: cookieJar, sink: sink,
                                            stallTimeout: stallTimeout)
            // Keep what the server just set (a renewed session cookie) for the next start,
            // also when a redirect set it and the final answer did not. A failure to write
            // is not the request's failure: the cookies still work in memory, and the
            // login, which must persist, saves explicitly and reports.
            if let cookieJar, sink.sawSetCookie { try? cookieJar.save() }
            return .success(response)
        } catch {
            return .failure(error)
        }
    }
}
