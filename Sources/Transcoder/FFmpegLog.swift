import CFFmpeg
import Foundation

/// Where FFmpeg's own messages go. Its default (`av_log_default_callback`) writes warnings
/// and errors to the process's standard error, where a server's output must carry only its
/// own lines; after ``route(to:)`` they reach a handler instead, one line each (with
/// FFmpeg's `[context @ 0x…] ` prefix), and nothing of FFmpeg's reaches descriptor 2.
///
/// Failures do not depend on these lines: every one reaches ``AudioTranscoder`` as a
/// return code and its caller as a ``TranscodeError``. The lines are diagnostics (a damaged
/// frame skipped, a duration estimated from the bit rate).
///
/// **Only for processes without libmpv.** FFmpeg's log callback is one per process, and
/// libavutil is shared with libmpv, which sets a callback of its own to read FFmpeg's HTTP
/// errors: routing in a process that plays through libmpv would blind the player. `mhz
/// serve` routes; the radio does not: its embedded station transcodes nothing it plays, and
/// the FFmpeg lines of its sound analysis reach libmpv's callback.
public enum FFmpegLog {
    private static let lock = NSLock()
    /// Guarded by `lock`.
    nonisolated(unsafe) private static var current: (@Sendable (String) -> Void)?

    /// Sends FFmpeg's warnings and errors to `handler` from now on (on whatever thread
    /// logged them), replacing any handler given before; `nil` drops them. Does not load
    /// FFmpeg's libraries: the routing starts when they are loaded, by the first transcode.
    public static func route(to handler: (@Sendable (String) -> Void)?) {
        lock.withLock { current = handler }
        mhz_ffmpeg_route_log { _, line in
            guard let line else { return }
            let text = String(cString: line)
            FFmpegLog.lock.withLock { FFmpegLog.current }?(text)
        }
    }
}
