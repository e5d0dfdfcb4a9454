/// The one-letter `type=` of a playlist request: every user action and every fetch goes to
/// the same endpoint as one of these (docs/PROTOCOL.md §2). Call sites never spell the
/// letters; the raw values are the wire codes.
public enum ReportType: String, Sendable, CaseIterable, Codable {
    /// Nothing is playing and the queue is empty (first start, channel change). Long report:
    /// the answer is a new song list.
    case new = "n"
    /// The current song played to its end. Short report: the answer is only an
    /// acknowledgement (`"ok"` or `{"r":0}`).
    case end = "e"
    /// A song is playing and the local queue has run empty: fetch more. Long report.
    case playing = "p"
    /// The user skipped the current song. Long report; the answer replaces the queue.
    case skip = "s"
    /// "Bye": trash the current song, never to be played again. Long report; the answer
    /// replaces the queue.
    case ban = "b"
    /// Rate (red heart) the current song. Web servers answer with a list, app servers with
    /// an acknowledgement; both are accepted.
    case rate = "r"
    /// Remove the red heart from the current song. Answered like `rate`.
    case unrate = "u"

    /// Whether the request names the song it is about (`sid`). Only `n` may go without.
    public var needsSongID: Bool { self != .new }

    /// Whether the answer is a song list by contract (the "long reports"). `r`/`u` may
    /// carry a list too, but need not.
    public var expectsList: Bool {
        switch self {
        case .new, .playing, .skip, .ban: return true
        case .end, .rate, .unrate: return false
        }
    }

    /// Feedback: a report about a song the listener heard or acted on (`e r u s b`), which
    /// the station records each time it arrives; the radio's outbox keeps it until the
    /// station has it. Fetches (`n p`) are neither.
    public var isFeedback: Bool {
        switch self {
        case .end, .rate, .unrate, .skip, .ban: true
        case .new, .playing: false
        }
    }
}

