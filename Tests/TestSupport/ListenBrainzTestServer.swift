import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// A ListenBrainz stand-in on an ephemeral 127.0.0.1 port, answering as its API
/// documentation describes (listenbrainz.readthedocs.io, "Core API"): `POST
/// /1/submit-listens` with `Authorization: Token …` (a `single` has one listen with
/// `listened_at`, a `playing_now` one without, each with `track_metadata`'s `artist_name`
/// and `track_name`; 401 for a wrong token, 400 for a malformed body) and `GET
/// /1/validate-token`. Every request is recorded; ``setAvailable(_:)`` makes it answer 503.
public final class ListenBrainzTestServer: Sendable {
    /// One submission the server took.
    public struct Submission: Sendable {
        /// `single`, `playing_now` or `import`.
        public var listenType: String
        /// The body as JSON text, for exact comparisons.
        public var body: String
        /// The listens: `listened_at` (nil for playing_now), artist, track, release.
        public var listens: [(listenedAt: Int64?, artist: String, track: String, release: String?)]
    }

    /// The token the server knows.
    public let token: String
    /// The user the token belongs to.
    public static let userName = "brainz-listener"
    /// The base URL, `http://127.0.0.1:<port>`.
    public let baseURL: URL
    private let state = Locked(State())
    private let running: TestServerLaunch.Running

    struct State {
        var submissions: [Submission] = []
        var requests: [(path: String, authorization: String?, status: Int)] = []
        var available = true
    }

    /// Starts the server; returns once the port is bound.
    public init(token: String) async throws {
        self.token = token
        let router = Router(context: BasicRequestContext.self)
        let state = self.state
        router.post("/1/submit-listens") { request, _ in
            var request = request
            let body = Data(try await request.collectBody(upTo: 1 << 20).readableBytesView)
            let (status, text) = Self.submit(body, authorization: request.headers[.authorization], token: token, state: state)
            state.withLock { $0.requests.append(("/1/submit-listens", request.headers[.authorization], status)) }
            return Self.json(status, text)
        }
        router.get("/1/validate-token") { request, _ in
            let authorization = request.headers[.authorization]
            let available = state.value.available
            let valid = authorization == "Token \(token)"
            let status = !available ? 503 : valid ? 200 : 401
            state.withLock { $0.requests.append(("/1/validate-token", authorization, status)) }
            guard available else { return Self.json(503, #"{"code":503,"error":"down"}"#) }
            return valid
                ? Self.json(200, #"{"code":200,"message":"Token valid.","valid":true,"user_name":"\#(Self.userName)"}"#)
                : Self.json(401, #"{"code":401,"message":"Token invalid.","valid":false}"#)
        }
        running = try await TestServerLaunch.start { onPort in
            Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                        onServerRunning: { channel in onPort(channel.localAddress?.port ?? 0) },
                        logger: Logger(label: "listenbrainz-test-server", factory: { _ in SwiftLogNoOpLogHandler() }))
        }
        baseURL = URL(string: "http://127.0.0.1:\(running.port)")!
    }

    /// Stops the server and waits until it has.
    public func stop() async {
        running.stop()
        _ = await running.task.result
    }

    /// Whether submissions are taken (true) or answered 503 (false).
    public func setAvailable(_ available: Bool) { state.withLock { $0.available = available } }

    /// Every submission taken, in order.
    public var submissions: [Submission] { state.value.submissions }

    /// Every request: its path, its `Authorization` header and the status answered.
    public var requests: [(path: String, authorization: String?, status: Int)] { state.value.requests }

    private static func submit(_ body: Data, authorization: String?, token: String, state: Locked<State>) -> (Int, String) {
        guard state.value.available else { return (503, #"{"code":503,"error":"The service is down."}"#) }
        guard authorization == "Token \(token)" else { return (401, #"{"code":401,"error":"Invalid authorization token."}"#) }
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let type = object["listen_type"] as? String, ["single", "playing_now", "import"].contains(type),
              let payload = object["payload"] as? [[String: Any]], !payload.isEmpty,
              type == "import" || payload.count == 1
        else { return (400, #"{"code":400,"error":"Invalid JSON document submitted."}"#) }
        var listens: [(listenedAt: Int64?, artist: String, track: String, release: String?)] = []
        for listen in payload {
            let at = (listen["listened_at"] as? NSNumber)?.int64Value
            guard (type == "playing_now") == (at == nil),
                  let metadata = listen["track_metadata"] as? [String: Any],
                  let artist = metadata["artist_name"] as? String, !artist.isEmpty,
                  let track = metadata["track_name"] as? String, !track.isEmpty
            else { return (400, #"{"code":400,"error":"JSON document has invalid listens."}"#) }
            listens.append((listenedAt: at, artist: artist, track: track, release: metadata["release_name"] as? String))
        }
        let submission = Submission(listenType: type, body: String(decoding: body, as: UTF8.self),
                                    listens: listens)
        state.withLock { $0.submissions.append(submission) }
        return (200, #"{"status":"ok"}"#)
    }

    private static func json(_ status: Int, _ text: String) -> Response {
        Response(status: .init(code: status), headers: [.contentType: "application/json"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
