import Foundation

/// What a ``FaultProxy`` does to the connections and requests it relays, set per scenario
/// and changeable at any moment while a client runs.
///
/// Modes that shape a transfer in flight (``stall``, ``trickle(bytes:everyMilliseconds:)``,
/// ``passThrough``) are read again before every piece of a response body is relayed, so a
/// song streaming through the proxy stalls the moment the mode becomes `.stall` and goes on
/// when it changes back. The others decide the fate of each new connection when it arrives.
public enum FaultMode: Sendable, Equatable {
    /// Relay requests and answers untouched (but for `Connection: close`, see ``FaultProxy``).
    case passThrough
    /// Accept each connection and close it at once, before reading a byte: a FIN, or with
    /// `reset` an RST. The upstream never sees the request.
    case drop(reset: Bool)
    /// Forward the request, relay the answer's head and `afterBytes` bytes of its body, then
    /// close with an RST (SO_LINGER 0). The upstream has seen (and acted on) the request.
    case resetMidBody(afterBytes: Int)
    /// Hold every connection without sending anything, for as long as the mode lasts or the
    /// proxy runs: a new request is read but not forwarded, and a body being relayed stops
    /// between two pieces. When the mode changes, held connections carry on under the new one.
    case stall
    /// Answer the next `count` requests with `status` by itself (and `Retry-After:
    /// retryAfter` when given), without forwarding them; then pass through again.
    case answer(status: Int, retryAfter: Int?, count: Int)
    /// Forward the request, relay the head and `afterBytes` bytes of the body, then close
    /// normally (FIN): a body cut short of its `Content-Length`.
    case truncateBody(afterBytes: Int)
    /// Forward each request after `milliseconds` ± `jitter` ms, the jitter drawn from a
    /// generator seeded with `seed` (the same seed gives the same delays, in order).
    case latency(milliseconds: Int, jitter: Int, seed: UInt64)
    /// Relay response bodies `bytes` at a time, one piece every `everyMilliseconds` ms
    /// (the head goes at once): a slow network, or with tiny pieces an answer that never ends.
    case trickle(bytes: Int, everyMilliseconds: Int)
}

/// What a ``FaultProxy`` did, counted so a test can assert its faults were really injected.
public struct FaultCounts: Sendable, Equatable {
    /// Connections accepted.
    public var connections = 0
    /// Connections closed at once by ``FaultMode/drop(reset:)``.
    public var dropped = 0
    /// Requests answered by the proxy itself (``FaultMode/answer(status:retryAfter:count:)``).
    public var answered = 0
    /// Requests forwarded to the upstream.
    public var forwarded = 0
    /// Answers cut with an RST (``FaultMode/resetMidBody(afterBytes:)``).
    public var reset = 0
    /// Answers cut with a FIN (``FaultMode/truncateBody(afterBytes:)``).
    public var truncated = 0
    /// Connections that were held by ``FaultMode/stall`` at least once.
    public var stalled = 0

    /// All zero.
    public init() {}
}

/// One thing a ``FaultProxy`` did, with when: for assertions on order and spacing.
public struct FaultRecord: Sendable, Equatable {
    /// What happened.
    public enum Action: Sendable, Equatable {
        /// The connection was closed unread.
        case dropped
        /// The proxy answered with this status itself.
        case answered(Int)
        /// The request went to the upstream.
        case forwarded
    }

    /// The request's path without the query; nil for a connection dropped unread.
    public var path: String?
    /// The request's query string (still percent-encoded); "" without one.
    public var query: String
    /// What the proxy did.
    public var action: Action
    /// When it did it.
    public var time: ContinuousClock.Instant
}

/// The delays of ``FaultMode/latency(milliseconds:jitter:seed:)``, in order: `milliseconds`
/// plus a jitter in `-jitter...jitter` drawn from a xorshift64* generator seeded with
/// `seed`, so the same seed gives the same delays on every run.
public struct LatencySequence: Sendable, Equatable {
    private let milliseconds: Int
    private let jitter: Int
    private var state: UInt64

    /// The sequence for one `latency` mode.
    public init(milliseconds: Int, jitter: Int, seed: UInt64) {
        self.milliseconds = milliseconds
        self.jitter = max(0, jitter)
        // xorshift's state must not be zero; every seed gives its own state.
        let mixed = seed ^ 0x9E37_79B9_7F4A_7C15
        state = mixed == 0 ? 1 : mixed
    }

    /// The next delay in milliseconds (never below zero).
    public mutating func next() -> Int {
        guard jitter > 0 else { return max(0, milliseconds) }
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        let value = state &* 0x2545_F491_4F6C_DD1D
        return max(0, milliseconds + Int(value % UInt64(2 * jitter + 1)) - jitter)
    }
}
