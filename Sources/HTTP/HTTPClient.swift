import Foundation
import Synchronization

/// Performs HTTP requests with libcurl, off the caller's task.
///
/// Easy handles are pooled and reused, so connections to a server stay open between
/// requests. Each request runs its blocking `curl_easy_perform` on a thread of its own:
/// a dispatch queue would run only as many at once as there are cores, so one hanging
/// server could hold back every other request (a skip's report behind a stalled fetch).
/// Cancelling the calling task aborts the transfer at libcurl's next progress callback.
public final class HTTPClient: Sendable {
    /// The settings every request uses.
    public let configuration: HTTPConfiguration
    private let pool = Mutex<[PooledHandle]>([])

    /// A handle is only ever used by one thread at a time: it is taken out of the pool for
    /// the duration of a request and put back afterwards.
    private struct PooledHandle: @unchecked Sendable { let easy: CurlEasy }

    /// Creates a client.
    public init(configuration: HTTPConfiguration = HTTPConfiguration()) {
        self.configuration = configuration
    }

    /// Performs a request and returns the response, whatever its status.
    ///
    /// - Throws: ``HTTPError`` when no response came: transport failure, timeout, cap
    ///   exceeded, cancellation.
    public func perform(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
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
        return try result.get()
    }

    private func performBlocking(_ request: HTTPRequest, sink: ResponseSink) -> Result<HTTPResponse, HTTPError> {
        if sink.isCancelled { return .failure(.cancelled) }
        let reused = pool.withLock { $0.popLast()?.easy }
        do throws(HTTPError) {
            let easy: CurlEasy
            if let reused { easy = reused } else { easy = try CurlEasy() }
            defer { pool.withLock { $0.append(PooledHandle(easy: easy)) } }
            return .success(try easy.perform(request, configuration: configuration, sink: sink))
        } catch {
            return .failure(error)
        }
    }
}
