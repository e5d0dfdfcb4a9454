import Foundation
import Hummingbird
import Logging
import NIOCore

/// A Douban-FM-style server on an ephemeral 127.0.0.1 port that speaks both API families
/// as docs/PROTOCOL.md records Douban's (login, captcha, playlists, in-band errors), and records
/// every request it receives — query, form body and cookies — so tests can assert exactly
/// what a client sent.
///
/// - App family: `GET /j/app/radio/channels`, `GET /j/app/radio/people`,
///   `POST /j/app/login`; `GET /j/app/radio/liked_songs` answers a 404 page, as a station
///   without that list (its pages can be scripted).
/// - Web family: `GET /j/new_captcha` (sets `bid`), `GET /misc/captcha`,
///   `POST /j/login` (sets `dbcl2`, `ck`), `GET /j/v2/playlist`, `GET /partner/logout`.
/// - `GET /media/<sid>.wav`: a few seconds of silence, for a real player.
///
/// Any path can be scripted to answer otherwise (a status, raw bytes, a huge body) for
/// the next N requests (a server that never answers is ``SilentListener``), which is how tests build their bad-input
/// corpus. It is deliberately written without RadioAPI: an independent oracle.
public final class DoubanTestServer: Sendable {
    /// The account the server knows.
    public enum Account {
        /// E-mail address.
        public static let email = "listener@example.com"
        /// User name.
        public static let name = "listener"
        /// Password; tests grep for it where it must never be.
        public static let password = "correct horse 9!"
        /// Account id.
        public static let userID = "1000001"
        /// The app login's token (10 hex digits, like Douban's).
        public static let token = "c8f2111141"
        /// The app login's expiry (Unix seconds, 180 days ahead as on Douban).
        public static let expire = "1900000000"
        /// The web session cookie's value.
        public static let sessionCookie = "1000001:hXADDW6guJg"
        /// The web `ck` cookie's value.
        public static let check = "tEZ9"
        /// The captcha id `/j/new_captcha` hands out.
        public static let captchaID = "8Z9w6tODHEukHkAmBz52dWg4:en"
        /// The letters "in" the captcha image.
        public static let captchaSolution = "moon"
        /// The `bid` cookie `/j/new_captcha` sets.
        public static let browserID = "Xa1bC2dE3fG"
    }

    /// One request as the server saw it.
    public struct Call: Sendable, CustomStringConvertible {
        /// `GET`, `POST`.
        public var method: String
        /// The path without the query.
        public var path: String
        /// The raw query string (still percent-encoded), exactly as sent.
        public var rawQuery: String
        /// The query pairs, decoded, in order.
        public var query: [(String, String)]
        /// The form body's pairs, decoded, in order (empty for GET).
        public var form: [(String, String)]
        /// The raw body.
        public var body: Data
        /// Request headers, names lowercased (the last value of a repeated header).
        public var headers: [String: String]
        /// The cookies sent, by name.
        public var cookies: [String: String]

        /// The first value of a query parameter.
        public func parameter(_ name: String) -> String? { query.first { $0.0 == name }?.1 }
        /// The first value of a form field.
        public func field(_ name: String) -> String? { form.first { $0.0 == name }?.1 }
        /// `name=value&…` of the decoded query, for exact comparisons.
        public var queryText: String { query.map { "\($0.0)=\($0.1)" }.joined(separator: "&") }
        /// `name=value&…` of the decoded form.
        public var formText: String { form.map { "\($0.0)=\($0.1)" }.joined(separator: "&") }

        public var description: String { "\(method) \(path)?\(rawQuery)" }
    }

    /// An answer a test puts in place of the normal one.
    public enum Scripted: Sendable {
        /// A status with an optional body and headers.
        case status(Int, body: String = "", headers: [String: String] = [:])
        /// Status 200 with these bytes.
        case bytes(Data, contentType: String = "application/json; charset=utf-8")
        /// Status 200 with `count` spaces streamed, far over any sane cap.
        case huge(count: Int)
    }

    /// The base URL, `http://127.0.0.1:<port>`.
    public let baseURL: URL
    let state = Locked(State())
    private let task: Task<Void, any Error>
    private let running: TestServerLaunch.Running

    struct State {
        var calls: [Call] = []
        var scripts: [String: [Scripted]] = [:]
        var sessionsValid = true
        var webLoggedOut = false
        var mediaSeconds = 30
        var songLength = 30
        var mediaBase: String?
    }

    /// Starts the server and returns once the port is bound.
    ///
    /// - Parameter port: 0 for any free port (tests that need a refused port first pass
    ///   one they reserved).
    public init(port: Int = 0) async throws {
        let router = Router(context: BasicRequestContext.self)
        let state = self.state
        router.middlewares.add(CallRecorder(state: state))
        Self.addRoutes(to: router, state: state)
        let running = try await TestServerLaunch.start { onPort in
            Application(
                router: router,
                configuration: .init(address: .hostname("127.0.0.1", port: port)),
                onServerRunning: { channel in onPort(channel.localAddress?.port ?? 0) },
                logger: Logger(label: "douban-test-server", factory: { _ in SwiftLogNoOpLogHandler() })
            )
        }
        // Cancelled rather than shut down gracefully: tests stop it to find the address
        // refusing at once, and start another on the same port.
        self.task = running.task
        self.running = running
        baseURL = URL(string: "http://127.0.0.1:\(running.port)")!
    }

    /// Stops the server at once.
    public func stop() { task.cancel() }

    /// Stops the server gracefully while clients may be connecting (the radio retrying):
    /// it stops accepting, serves or closes what it accepted, and returns once it ended.
    /// `stop()` there could trap in SwiftNIO on a connection accepted as it was cancelled.
    public func shutDown() async {
        running.stop()
        _ = await running.task.result
    }

    deinit { task.cancel() }

    /// Every request so far, in arrival order.
    public var calls: [Call] { state.value.calls }

    /// The requests to one path.
    public func calls(to path: String) -> [Call] { calls.filter { $0.path == path } }

    /// Answers the next requests to `path` with `responses`, in order, then normally again.
    public func script(_ path: String, _ responses: [Scripted]) {
        state.withLock { $0.scripts[path, default: []].append(contentsOf: responses) }
    }

    /// From now on, tokens and session cookies handed out so far are refused
    /// (`{"r":1,"err":"expired"}` for the app family; anonymous answers for the web).
    public func expireSessions() { state.withLock { $0.sessionsValid = false } }

    /// Whether the web session was ended with a valid `/partner/logout`.
    public var webLoggedOut: Bool { state.value.webLoggedOut }

    /// From now on, songs' `url`s point at `base` (e.g. a ``FaultProxy`` in front of a media
    /// server) instead of the host the playlist request named, so a test can fault the
    /// media alone, or the API alone.
    public func serveMedia(from base: URL) { state.withLock { $0.mediaBase = base.absoluteString } }

    /// From now on, a song's audio is `seconds` of silence (30 unless set).
    public func setMediaSeconds(_ seconds: Int) { state.withLock { $0.mediaSeconds = seconds } }

    /// From now on, playlists announce each song as `seconds` long (30 unless set).
    public func setSongLength(_ seconds: Int) { state.withLock { $0.songLength = seconds } }

    /// The URL of a song's audio.
    public func mediaURL(_ sid: String) -> String { baseURL.absoluteString + "/media/\(sid).wav" }
}

/// Records each request, body included, before routing (the body is collected once and
/// stays readable for the handler).
struct CallRecorder: RouterMiddleware {
    let state: Locked<DoubanTestServer.State>

    func handle(_ request: Request, context: BasicRequestContext,
                next: (Request, BasicRequestContext) async throws -> Response) async throws -> Response {
        var request = request
        let buffer = try await request.collectBody(upTo: 1 << 20)
        let body = Data(buffer.readableBytesView)
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        // HTTP/1.1's Host travels as the :authority pseudo-header in HTTPTypes.
        if let authority = request.head.authority { headers["host"] = authority }
        var cookies: [String: String] = [:]
        for pair in (headers["cookie"] ?? "").split(separator: ";") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard kv.count == 2 else { continue }
            cookies[kv[0].trimmingCharacters(in: .whitespaces)] = String(kv[1]).trimmingCharacters(in: .whitespaces)
        }
        let isForm = headers["content-type"]?.hasPrefix("application/x-www-form-urlencoded") == true
        let call = DoubanTestServer.Call(
            method: request.method.rawValue, path: request.uri.path, rawQuery: request.uri.query ?? "",
            query: Self.pairs(request.uri.query ?? ""),
            form: isForm ? Self.pairs(String(decoding: body, as: UTF8.self)) : [], body: body, headers: headers,
            cookies: cookies)
        state.withLock { $0.calls.append(call) }
        return try await next(request, context)
    }

    /// Splits `a=1&b=2`, decoding `%XX` and `+`.
    static func pairs(_ text: String) -> [(String, String)] {
        text.split(separator: "&").map { part in
            let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String {
                let spaced = s.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (decode(kv[0]), kv.count > 1 ? decode(kv[1]) : "")
        }
    }
}
