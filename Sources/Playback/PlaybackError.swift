import CMpv

/// Failures of the Playback layer. Texts come from `mpv_error_string`; turning them into
/// user-facing sentences is the UI's job.
public enum PlaybackError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `mpv_create` returned NULL or `mpv_initialize` failed; the text says which and why.
    case creationFailed(String)
    /// mpv rejected an option (its name and mpv's error text).
    case optionRejected(name: String, message: String)
    /// A command or property write failed (its name and mpv's error text).
    case commandFailed(name: String, message: String)
    /// The player has been shut down; no further commands are possible.
    case shutDown
    /// `advance()` found no queued item to jump to.
    case nothingQueued
    /// Video was asked for, but there is no display to open a window on: neither `DISPLAY`
    /// nor `WAYLAND_DISPLAY` is set to a non-empty value. Audio-only playback still works.
    /// The words for the user are the caller's (the CLI names its `--video` option).
    case noDisplay

    /// One line for logs.
    public var description: String {
        switch self {
        case .creationFailed(let message): "mpv could not be created: \(message)"
        case .optionRejected(let name, let message): "mpv rejected option \(name): \(message)"
        case .commandFailed(let name, let message): "mpv command \(name) failed: \(message)"
        case .shutDown: "the player has been shut down"
        case .nothingQueued: "no next item is queued"
        case .noDisplay: "cannot show video: neither DISPLAY nor WAYLAND_DISPLAY is set"
        }
    }
}

/// mpv's text for one of its (negative) error codes, e.g. "loading failed" for -13.
func mpvErrorText(_ code: Int32) -> String {
    // mpv_error_string returns a static string ("unknown error" for unknown codes), never NULL.
    String(cString: mpv_error_string(code))
}
