import CMpv

/// Why an item stopped playing, as `PlaybackEvent.finished` reports it: it tells a dead URL,
/// a lost connection and a failed audio output apart from other failures, because each
/// calls for something else.
public enum FinishReason: Sendable, Equatable {
    /// It played to its end.
    case eof
    /// It was stopped, replaced, dequeued, skipped with `advance()`, or the player shut down.
    case stopped
    /// The server answered the media URL with an HTTP error status (401, 403, 404, 410, 5xx…),
    /// when opening it or when reloading it during a recovery: the URL has expired or is
    /// wrong, so the caller should fetch a fresh one rather than retry it.
    case mediaUnavailable(status: Int)
    /// The stream broke mid-item and every recovery attempt failed (`gaveUp` came first).
    case connectionLost
    /// The audio output could not be opened (mpv's `MPV_ERROR_AO_INIT_FAILED`): no device,
    /// or the device went away. Every further item would fail the same way.
    case audioOutputFailed
    /// Anything else; the text is mpv's `mpv_error_string` (e.g. "loading failed",
    /// "unrecognized file format").
    case error(String)

    /// mpv's own words for a failure (its `mpv_error_string` of the end-file error), for
    /// logs and for callers that pass them on; nil when the item did not fail.
    public var mpvWords: String? {
        switch self {
        case .eof, .stopped: nil
        case .mediaUnavailable: mpvErrorText(MPV_ERROR_LOADING_FAILED.rawValue)
        case .connectionLost: "connection lost"
        case .audioOutputFailed: mpvErrorText(MPV_ERROR_AO_INIT_FAILED.rawValue)
        case .error(let text): text
        }
    }
}
