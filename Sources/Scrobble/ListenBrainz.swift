import Foundation

/// ListenBrainz's API as mhz uses it (listenbrainz.readthedocs.io, "Submitting listens"):
/// `POST /1/submit-listens` with `Authorization: Token …`, a `playing_now` when a song
/// starts and a `single` listen once it counts; `GET /1/validate-token` to check a token.
public struct ListenBrainz: ScrobbleEndpoint {
    /// The service's root, `https://api.listenbrainz.org` by default.
    public var baseURL: URL
    /// The user token (a secret).
    public var token: String
    /// `submission_client` and `submission_client_version`.
    public var client: ScrobbleClient

    /// The public service.
    public static let defaultURL = URL(string: "https://api.listenbrainz.org")!

    /// Creates the endpoint.
    public init(baseURL: URL = ListenBrainz.defaultURL, token: String, client: ScrobbleClient) {
        self.baseURL = baseURL
        self.token = token
        self.client = client
    }

    /// ``ScrobbleService/listenBrainz``.
    public var service: ScrobbleService { .listenBrainz }

    /// One listen per request: the courier sends the outbox's listens as `single`s.
    public func batchSize(of kind: String) -> Int { 1 }

    /// `playing_now`: the song without a timestamp.
    public func nowPlaying(_ song: PlayedSong) -> ScrobbleRequest {
        submit(Submission(listenType: "playing_now", payload: [listen(song, at: nil)]), label: "playing_now")
    }

    /// A `single` listen for a `.listen`; nil for what ListenBrainz does not take (likes:
    /// its feedback API names recordings by MusicBrainz id, which a radio song has not).
    public func request(for actions: [ScrobbleAction]) -> ScrobbleRequest? {
        guard actions.count == 1, case .listen(let song) = actions[0] else { return nil }
        return submit(Submission(listenType: "single", payload: [listen(song, at: song.startedAt)]), label: "single")
    }

    /// `GET /1/validate-token` with the token.
    public func validateToken() -> ScrobbleRequest {
        ScrobbleRequest(method: "GET", url: endpoint("1/validate-token"),
                        headers: [.init("Authorization", "Token \(token)")], label: "validate-token")
    }

    /// What an answer to a submission means: 2xx is taken; 401 and 403 a bad token; a
    /// status that may pass (408, 429, 5xx) not now; another 4xx refuses that listen
    /// (ListenBrainz says why in `error`).
    public func check(_ reply: ScrobbleReply) throws(ScrobbleFailure) {
        let message = Self.errorText(reply.body)
        switch reply.status {
        case 200..<300: return
        case 401, 403: throw .credentials(status: reply.status, message: message)
        default: throw ScrobbleFailure(status: reply.status, message: message)
        }
    }

    /// The user a validation answer names: `{"valid": true, "user_name": …}`; nil when the
    /// token is not valid.
    public static func validatedUser(_ reply: ScrobbleReply) throws(ScrobbleFailure) -> String? {
        guard reply.status == 200 || reply.status == 401 || reply.status == 400 else {
            throw ScrobbleFailure(status: reply.status, message: errorText(reply.body))
        }
        guard let object = try? JSONSerialization.jsonObject(with: reply.body) as? [String: Any] else {
            throw .badAnswer("the answer to validate-token is not JSON")
        }
        guard object["valid"] as? Bool == true else { return nil }
        return object["user_name"] as? String ?? ""
    }

    /// The `error` (or `message`) of an answer, else its status's place: what the line says.
    static func errorText(_ body: Data) -> String {
        let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        return (object?["error"] as? String) ?? (object?["message"] as? String) ?? ""
    }

    private func endpoint(_ path: String) -> URL {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + "/" + path)!
    }

    private func submit(_ submission: Submission, label: String) -> ScrobbleRequest {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain strings and numbers cannot fail.
        let body = (try? encoder.encode(submission)) ?? Data()
        return ScrobbleRequest(method: "POST", url: endpoint("1/submit-listens"),
                               headers: [.init("Authorization", "Token \(token)"),
                                         .init("Content-Type", "application/json")],
                               body: body, label: "submit-listens \(label)")
    }

    private func listen(_ song: PlayedSong, at time: Int64?) -> Listen {
        Listen(listenedAt: time, trackMetadata: TrackMetadata(
            artistName: song.artist, trackName: song.title, releaseName: song.album.isEmpty ? nil : song.album,
            additionalInfo: AdditionalInfo(durationMs: song.duration(unitsPerSecond: 1000),
                                           submissionClient: client.name, submissionClientVersion: client.version)))
    }

    private struct Submission: Encodable {
        var listenType: String
        var payload: [Listen]
        enum CodingKeys: String, CodingKey { case listenType = "listen_type", payload }
    }

    private struct Listen: Encodable {
        var listenedAt: Int64?
        var trackMetadata: TrackMetadata
        enum CodingKeys: String, CodingKey { case listenedAt = "listened_at", trackMetadata = "track_metadata" }
    }

    private struct TrackMetadata: Encodable {
        var artistName: String
        var trackName: String
        var releaseName: String?
        var additionalInfo: AdditionalInfo
        enum CodingKeys: String, CodingKey {
            case artistName = "artist_name", trackName = "track_name", releaseName = "release_name",
                 additionalInfo = "additional_info"
        }
    }

    private struct AdditionalInfo: Encodable {
        var durationMs: Int?
        var submissionClient: String
        var submissionClientVersion: String
        enum CodingKeys: String, CodingKey {
            case durationMs = "duration_ms", submissionClient = "submission_client",
                 submissionClientVersion = "submission_client_version"
        }
    }
}

/// The program that submits, as the services are told of it.
public struct ScrobbleClient: Sendable, Equatable {
    /// Its name, `mhz`.
    public var name: String
    /// Its version.
    public var version: String

    /// Creates the client's name and version.
    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }
}

/// A service as the courier drives it: the request for a run of waiting actions, the
/// now-playing request, and what an answer means.
public protocol ScrobbleEndpoint: Sendable {
    /// Which service it is.
    var service: ScrobbleService { get }
    /// How many actions of `kind` (``ScrobbleAction/kind``) one request may carry.
    func batchSize(of kind: String) -> Int
    /// The request for `actions` (of one kind, at most ``batchSize(of:)``); nil when the
    /// service takes no such action (it is then forgotten).
    func request(for actions: [ScrobbleAction]) -> ScrobbleRequest?
    /// The request saying `song` is playing now.
    func nowPlaying(_ song: PlayedSong) -> ScrobbleRequest
    /// Throws what an answer means when it is not a success.
    func check(_ reply: ScrobbleReply) throws(ScrobbleFailure)
}
