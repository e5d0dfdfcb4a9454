import NIOCore

/// What the live edge's short path (``LiveEdgeHandler``) answers: a body kept ready in a
/// broadcast's ``LiveEdge``, and whether it is a playlist or a segment.
struct LiveEdgeAnswer: Sendable, Equatable {
    /// What the body is, which names its headers.
    enum Kind: Sendable, Equatable {
        /// A variant's live window playlist: `application/vnd.apple.mpegurl`, `no-cache`.
        case playlist
        /// A segment: `video/mp2t`, `max-age=86400` (a segment never changes once listed).
        case segment
    }

    /// What the body is.
    var kind: Kind
    /// The body, shared with every other listener's answer.
    var body: ByteBuffer
}

/// Where ``LiveEdgeHandler`` finds its answers: a seam, so the handler can be tested with
/// answers of its own making.
protocol LiveEdgeSource: Sendable {
    /// The answer to a `GET` of `target` (the request target as sent) from the peer
    /// `listener` (its address), or `nil` when the station's router must answer it.
    func answer(target: String, listener: String) -> LiveEdgeAnswer?
}

/// The two requests every listener of a broadcast makes again and again (docs/PROTOCOL.md
/// §12), answered from what ``LiveEdge`` keeps in memory:
///
/// - `GET /live/<channel>/<kbps>.m3u8`, or with `?listener=<id>` (the id the master playlist
///   handed out): the live window playlist of a variant, the listener noted as listening
///   (as ``LiveAnswers`` notes it);
/// - `GET /live/<channel>/<kbps>/<sequence>.ts`: one of the newest segments.
///
/// Only these plain forms are taken: no other query (a look-back), no `%`, the numbers
/// in plain digits, a channel the station broadcasts, on the air with its first segments
/// out, and a segment kept in memory. Anything else is `nil`, for the router, whose answer
/// for these forms is the same bytes (``LiveAnswers``).
struct LiveEdgeRoute: LiveEdgeSource {
    /// The channels.
    let hub: LiveHub
    /// Counts each answer given here (the router never sees these requests).
    let metrics: StationMetrics

    private static let prefix = "/live/"

    /// The answer to `target`, or `nil` for the router. The peer's address plays no part:
    /// a listener is the id its playlist requests carry.
    func answer(target: String, listener: String) -> LiveEdgeAnswer? {
        guard target.utf8.count <= RequestLimitMiddleware<StationContext>.maximumTargetLength,
              target.hasPrefix(Self.prefix)
        else { return nil }
        guard let (path, id) = Self.split(target.utf8.dropFirst(Self.prefix.utf8.count)) else { return nil }
        let parts = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        switch parts.count {
        case 2:
            guard let kbps = Self.number(parts[1], suffix: ".m3u8"), LiveConfiguration.bitrates.contains(kbps),
                  let channel = String(parts[0]), let broadcast = hub.broadcast(channel),
                  let body = broadcast.edgePlaylist(kbps: kbps, listener: id)
            else { return nil }
            metrics.liveEdge("playlist")
            return LiveEdgeAnswer(kind: .playlist, body: body)
        case 3:
            guard let kbps = Self.number(parts[1], suffix: ""), LiveConfiguration.bitrates.contains(kbps),
                  let sequence = Self.number(parts[2], suffix: ".ts"),
                  let channel = String(parts[0]), let broadcast = hub.broadcast(channel),
                  let body = broadcast.edgeSegment(kbps: kbps, sequence: sequence)
            else { return nil }
            metrics.liveEdge("segment")
            return LiveEdgeAnswer(kind: .segment, body: body)
        default:
            return nil
        }
    }

    /// The path of `target` (after `/live/`) and the listener id of a query that is
    /// exactly `listener=<id>`; `nil` for any other query, which the router answers.
    private static func split(_ target: Substring.UTF8View) -> (path: Substring.UTF8View, id: String?)? {
        guard let mark = target.firstIndex(of: UInt8(ascii: "?")) else { return (target, nil) }
        let query = target[target.index(after: mark)...]
        let name = "listener=".utf8
        guard query.starts(with: name), LiveAudience.isID(query.dropFirst(name.count)) else { return nil }
        return (target[..<mark], String(query.dropFirst(name.count)))
    }

    /// The number `text` spells in plain ASCII digits (at most 18) before `suffix`.
    static func number(_ text: Substring.UTF8View, suffix: String) -> Int? {
        let digits = text.count - suffix.utf8.count
        guard digits > 0, digits <= 18, text.suffix(suffix.utf8.count).elementsEqual(suffix.utf8) else { return nil }
        var value = 0
        for byte in text.prefix(digits) {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
