import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// A Last.fm 2.0 web service stand-in on an ephemeral 127.0.0.1 port, answering as
/// last.fm/api documents (JSON with `format=json`): every call must carry the known
/// `api_key` and an `api_sig` that is the MD5 (``MD5``, not the client's) of its other
/// parameters but `format` and `callback`, sorted by name, as name then value, then the
/// shared secret (error 13 otherwise); `auth.getToken`, `auth.getSession` (error 14 until
/// ``approve(_:)``), and, with the session key (`sk`, error 9 otherwise),
/// `track.updateNowPlaying`, `track.scrobble` (indexed, at most 50: error 6 otherwise),
/// `track.love` and `track.unlove`. Every call is recorded; ``setAvailable(_:)`` makes it
/// answer 503 with error 16.
public final class LastFMTestServer: Sendable {
    /// One call the server answered.
    public struct Call: Sendable {
        /// The `method` parameter.
        public var method: String
        /// The form's pairs, decoded, in order.
        public var form: [(String, String)]
        /// The error code answered, or nil.
        public var error: Int?
        /// The first value of a field.
        public func field(_ name: String) -> String? { form.first { $0.0 == name }?.1 }
    }

    /// The API key, shared secret and session key the server knows.
    public let apiKey: String, secret: String, sessionKey: String
    /// The account's name.
    public static let userName = "fm-listener"
    /// The token `auth.getToken` hands out.
    public static let token = "cf45fe5a3e3cebe168480a086d7fe481"
    /// The web service's URL, `http://127.0.0.1:<port>/2.0/`.
    public let url: URL
    private let state = Locked(State())
    private let running: TestServerLaunch.Running

    struct State {
        var calls: [Call] = []
        var approved = false
        var available = true
    }

    /// Starts the server; returns once the port is bound.
    public init(apiKey: String, secret: String, sessionKey: String) async throws {
        self.apiKey = apiKey
        self.secret = secret
        self.sessionKey = sessionKey
        let router = Router(context: BasicRequestContext.self)
        let state = self.state
        router.post("/2.0") { request, _ in
            var request = request
            let body = String(decoding: try await request.collectBody(upTo: 1 << 20).readableBytesView, as: UTF8.self)
            let form = CallRecorder.pairs(body)
            let answer = Self.answer(form, apiKey: apiKey, secret: secret, sessionKey: sessionKey, state: state)
            state.withLock {
                $0.calls.append(Call(method: form.first { $0.0 == "method" }?.1 ?? "", form: form, error: answer.error))
            }
            return Response(status: .init(code: answer.status), headers: [.contentType: "application/json"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: answer.text)))
        }
        running = try await TestServerLaunch.start { onPort in
            Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                        onServerRunning: { channel in onPort(channel.localAddress?.port ?? 0) },
                        logger: Logger(label: "lastfm-test-server", factory: { _ in SwiftLogNoOpLogHandler() }))
        }
        url = URL(string: "http://127.0.0.1:\(running.port)/2.0/")!
    }

    /// Stops the server and waits until it has.
    public func stop() async {
        running.stop()
        _ = await running.task.result
    }

    /// The listener approved the token in the browser.
    public func approve() { state.withLock { $0.approved = true } }

    /// Whether calls are answered (true) or refused with 503 (false).
    public func setAvailable(_ available: Bool) { state.withLock { $0.available = available } }

    /// Every call, in order.
    public var calls: [Call] { state.value.calls }

    /// The calls of one method that succeeded.
    public func taken(_ method: String) -> [Call] { calls.filter { $0.method == method && $0.error == nil } }

    /// The signature Last.fm expects for `form`.
    public static func signature(_ form: [(String, String)], secret: String) -> String {
        let text = form.filter { !["format", "callback", "api_sig"].contains($0.0) }
            .sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
            .map { $0.0 + $0.1 }.joined() + secret
        return MD5.hex(Array(text.utf8))
    }

    private static func answer(_ form: [(String, String)], apiKey: String, secret: String, sessionKey: String,
                               state: Locked<State>) -> (status: Int, text: String, error: Int?) {
        func field(_ name: String) -> String? { form.first { $0.0 == name }?.1 }
        func failure(_ code: Int, _ message: String, status: Int = 400) -> (Int, String, Int?) {
            (status, #"{"error":\#(code),"message":"\#(message)"}"#, code)
        }
        guard state.value.available else { return failure(16, "There was a temporary error processing your request.", status: 503) }
        guard field("format") == "json" else { return failure(5, "Invalid format") }
        guard field("api_key") == apiKey else { return failure(10, "Invalid API key - You must be granted a valid key by last.fm", status: 403) }
        guard field("api_sig") == signature(form, secret: secret) else { return failure(13, "Invalid method signature supplied", status: 403) }
        let method = field("method") ?? ""
        switch method {
        case "auth.getToken":
            return (200, #"{"token":"\#(token)"}"#, nil)
        case "auth.getSession":
            guard field("token") == token, state.value.approved else { return failure(14, "Unauthorized Token - This token has not been authorized", status: 403) }
            return (200, #"{"session":{"name":"\#(userName)","key":"\#(sessionKey)","subscriber":0}}"#, nil)
        default: break
        }
        guard field("sk") == sessionKey else { return failure(9, "Invalid session key - Please re-authenticate", status: 403) }
        switch method {
        case "track.updateNowPlaying":
            guard let artist = field("artist"), let track = field("track") else { return failure(6, "Invalid parameters") }
            let text = ##"{"nowplaying":{"artist":{"#text":"\##(artist)"},"track":{"#text":"\##(track)"},"ignoredMessage":{"code":"0","#text":""}}}"##
            return (200, text, nil)
        case "track.scrobble":
            var index = 0
            while field("artist[\(index)]") != nil {
                guard field("track[\(index)]") != nil, field("timestamp[\(index)]").flatMap(Int64.init) != nil else {
                    return failure(6, "Invalid parameters")
                }
                index += 1
            }
            guard (1...50).contains(index) else { return failure(6, "Invalid parameters - at most 50 scrobbles") }
            return (200, #"{"scrobbles":{"@attr":{"accepted":\#(index),"ignored":0},"scrobble":[]}}"#, nil)
        case "track.love", "track.unlove":
            guard field("artist") != nil, field("track") != nil else { return failure(6, "Invalid parameters") }
            return (200, "{}", nil)
        default:
            return failure(3, "Invalid Method - No method with that name in this package")
        }
    }
}
