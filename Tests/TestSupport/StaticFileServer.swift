import Foundation
import Hummingbird
import Logging
import NIOCore

/// A Range-capable static file server on an ephemeral 127.0.0.1 port, for tests that need
/// mpv or libcurl to fetch real bytes. (`python3 -m http.server` ignores Range, which breaks
/// seeking; Hummingbird's FileMiddleware answers 206.) Records every request.
public final class StaticFileServer: Sendable {
    /// The served folder.
    public let root: URL
    /// Requests received, in order.
    public let recorder = RequestRecorder()
    /// The base URL, `http://127.0.0.1:<port>`.
    public let baseURL: URL
    private let running: TestServerLaunch.Running

    /// Starts serving `root` and returns once the port is bound.
    public init(root: URL) async throws {
        self.root = root
        let recorder = self.recorder
        let router = Router()
        router.middlewares.add(RecordingMiddleware(recorder: recorder))
        router.middlewares.add(FileMiddleware(root.path, searchForIndexHtml: false))
        running = try await TestServerLaunch.start { onPort in
            Application(
                router: router,
                configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in onPort(channel.localAddress?.port ?? 0) },
                logger: Logger(label: "test-file-server", factory: { _ in SwiftLogNoOpLogHandler() })
            )
        }
        baseURL = URL(string: "http://127.0.0.1:\(running.port)")!
    }

    /// The URL of a file under the root.
    public func url(_ relativePath: String) -> URL { baseURL.appendingPathComponent(relativePath) }

    /// Stops the server.
    public func stop() { running.stop() }

    deinit { running.stop() }
}

/// Records each request before passing it on.
public struct RecordingMiddleware<Context: RequestContext>: RouterMiddleware {
    let recorder: RequestRecorder

    /// Creates the middleware.
    public init(recorder: RequestRecorder) { self.recorder = recorder }

    /// Records, then continues the chain.
    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let query = (request.uri.query ?? "").split(separator: "&").map { part -> (String, String) in
            let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(kv[0]).removingPercentEncoding ?? String(kv[0])
            let value = kv.count > 1 ? (String(kv[1]).removingPercentEncoding ?? String(kv[1])) : ""
            return (name, value)
        }
        recorder.record(RecordedRequest(method: request.method.rawValue, path: request.uri.path, query: query,
                                        headers: headers))
        return try await next(request, context)
    }
}

/// Failures of the test helpers themselves.
public enum TestSupportError: Error, CustomStringConvertible {
    /// The server never reported a port.
    case serverDidNotStart
    /// A test server's application ended before it listened; carries what ended it.
    case serverFailed(String)
    /// A helper tool failed (ffmpeg missing or erroring).
    case toolFailed(String)
    /// Something did not happen in time.
    case timeout(String)
    /// A socket call failed; carries the call and errno's words.
    case socketFailed(String)

    public var description: String {
        switch self {
        case .serverDidNotStart: "test server did not start"
        case .serverFailed(let why): "test server did not start: \(why)"
        case .toolFailed(let s): "tool failed: \(s)"
        case .timeout(let s): "timed out: \(s)"
        case .socketFailed(let s): "socket failed: \(s)"
        }
    }
}
