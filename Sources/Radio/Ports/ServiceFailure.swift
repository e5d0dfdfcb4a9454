import Backoff

/// Why a call to the radio service failed, as the core needs to distinguish it.
///
/// The transports name the case (`StationLink`'s `StationTransport`; a status by
/// ``init(status:)``); what the radio does about a case is decided only here, below, by
/// the two questions the radio asks of a failure.
public enum ServiceFailure: Error, Sendable, Equatable {
    /// No answer: connection refused, DNS, timeout, reset. Carries the transport's words.
    case unreachable(String)
    /// The server answered with an HTTP error status that will not go away by waiting
    /// (4xx, 500, 501…).
    case httpStatus(Int)
    /// The server answered "not now" (a status `Backoff`'s one rule calls
    /// ``StatusVerdict/notNow``: 408, 429, 502, 503, 504; the HTTP layer already retried an
    /// idempotent request with backoff); the same request may succeed later.
    case busy(Int)
    /// The connection was made but the server's TLS certificate did not verify (self-signed,
    /// expired, another host's). Carries the transport's words.
    case untrusted(String)
    /// The answer could not be understood (HTML page, broken JSON). Carries a description.
    case malformed(String)
    /// The server refused the request in-band (`r != 0`); carries its error word.
    case rejected(String)
    /// The login session expired: playback goes on anonymously until the user logs in.
    case expired
    /// The channel plays only for a logged-in listener (the red-heart channel, `-3`:
    /// docs/PROTOCOL.md §7) and there is no login. Carries the channel id.
    case needsLogin(channel: String)

    /// The radio's name for a status other than 2xx: ``busy(_:)`` when it says "not now"
    /// (``StatusVerdict/isNotNow``), else ``httpStatus(_:)``.
    public init(status: Int) {
        self = StatusVerdict(status: status).isNotNow ? .busy(status) : .httpStatus(status)
    }
}

/// The radio's two questions about a failure, side by side. They are two questions, so
/// two cases answer them differently:
///
/// | failure | ``isStationDown`` | ``keepsReport`` |
/// |---|---|---|
/// | `unreachable`, `busy` | yes | yes |
/// | `httpStatus` 500 and up | yes | no |
/// | `untrusted` | no | yes |
/// | `httpStatus` under 500, `malformed`, `rejected`, `expired`, `needsLogin` | no | no |
///
/// - A server error (500, 501…) means the station cannot play for now, as much as no
///   answer does: with nothing queued, downloads play. But it was the answer to this very
///   report, which the station would answer the same again; the outbox sends one report at
///   a time in order, so keeping it would hold up every report behind it for good.
/// - A certificate that does not verify is no station that is down: the station may be
///   there, and the listener must look at the configuration (or at whoever is in between),
///   so the radio says so rather than quietly playing downloads. But the request never
///   left the TLS handshake, so the station never saw the report, and dropping it would
///   lose feedback that can still reach it once that is fixed.
extension ServiceFailure {
    /// Whether the station is not there to play from: no answer, "not now", or a server
    /// error. A list fetch that fails so, with nothing queued and songs downloaded, turns
    /// the radio to its downloads until the station answers again
    /// (``RadioMachine`` falls back; see docs/ARCHITECTURE.md §4).
    public var isStationDown: Bool {
        switch self {
        case .unreachable, .busy: true
        case .httpStatus(let status): StatusVerdict(status: status).mayPassLater
        case .untrusted, .malformed, .rejected, .expired, .needsLogin: false
        }
    }

    /// Whether a feedback report (`e r u s b`) that failed so stays first in the outbox's
    /// line and is tried again later (``ReportCourier``), rather than dropped: only when
    /// the station did not answer it, or answered "not now". Any other answer was the
    /// station's word on this report, and it would say the same again: a report the
    /// station answered is never sent again (the report rule, docs/ARCHITECTURE.md §2).
    var keepsReport: Bool {
        switch self {
        case .unreachable, .untrusted, .busy: true
        case .httpStatus, .malformed, .rejected, .expired, .needsLogin: false
        }
    }
}
