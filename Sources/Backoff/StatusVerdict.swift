/// What an HTTP status says about asking again: mhz's one rule of which answers say
/// "not now" and which say "no", for every layer that talks HTTP (the HTTP layer's quick
/// retries, the radio's station failures and its report outbox, downloads, the player's
/// reloads of a broken stream, scrobbling).
///
/// The layers ask two questions of it, and the verdicts answer both:
///
/// | status | verdict | ``isNotNow`` | ``mayPassLater`` |
/// |---|---|---|---|
/// | 200–299 | ``success`` | no | no |
/// | 408, 429, 502, 503, 504 | ``notNow`` | yes | yes |
/// | 500, 501, 505–599 | ``serverError`` | no | yes |
/// | any other | ``refused`` | no | no |
///
/// - "Did the server leave the request untaken?" (``isNotNow``): a request timeout, too
///   many requests, and the gateway and availability errors of proxies and overloaded
///   servers. Such a request is sent again: at once by the HTTP layer when it is
///   idempotent, later by the report outbox, which keeps a report only when it was not
///   taken.
/// - "May the same request succeed later with nobody doing anything?" (``mayPassLater``):
///   "not now", and a server error too. A server error is an answer to that very request
///   (an internal error usually repeats, so it is not sent again at once, and a report it
///   answered is dropped), but a server that failed may recover: a download waits and tries
///   again, the player reloads a stream, a scrobble stays in its outbox.
public enum StatusVerdict: Sendable, Equatable {
    /// 2xx: the server took the request.
    case success
    /// 408, 429, 502, 503, 504: the server did not take the request this time.
    case notNow
    /// A 5xx other than "not now": the server failed this request.
    case serverError
    /// Any other status (a 4xx, a status outside HTTP's classes): the answer is no, and
    /// asking the same again gets the same answer.
    case refused

    /// The verdict of `status`.
    public init(status: Int) {
        switch status {
        case 200...299: self = .success
        case 408, 429, 502, 503, 504: self = .notNow
        case 500...599: self = .serverError
        default: self = .refused
        }
    }

    /// Whether the server left the request untaken ("not now"): it may be sent again as it is.
    public var isNotNow: Bool { self == .notNow }

    /// Whether the same request may succeed later without anyone doing anything: "not now"
    /// or a server error.
    public var mayPassLater: Bool { self == .notNow || self == .serverError }
}
