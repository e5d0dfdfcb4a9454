import CMpv

/// Why an item stopped playing, as `PlaybackUpdate.finished` reports it. Finer than
/// `EndReason`: it tells a dead URL and a lost connection apart from other failures.
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

    /// The reason in the older `EndReason` vocabulary (failures become `.error` with mpv's
    /// words for the end-file error, as `events` always reported them).
    public var legacyReason: EndReason {
        switch self {
        case .eof: .eof
        case .stopped: .stopped
        case .mediaUnavailable: .error(mpvErrorText(MPV_ERROR_LOADING_FAILED.rawValue))
        case .connectionLost: .error("connection lost")
        case .audioOutputFailed: .error(mpvErrorText(MPV_ERROR_AO_INIT_FAILED.rawValue))
        case .error(let text): .error(text)
        }
    }
}
