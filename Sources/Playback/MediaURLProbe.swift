/// Asks a server for the HTTP status of a media URL that mpv failed to open, when mpv's
/// log did not say it. Playback declares it and does no HTTP of its own: the composition
/// root supplies one over the project's HTTP client (libcurl), tests supply their own.
///
/// Why this exists: mpv reports a refused URL only as END_FILE `error` -13 ("loading
/// failed"); the status is in ffmpeg's log line "http: HTTP error 403 Forbidden". But
/// ffmpeg's log callback is process-wide, and mpv 0.35 binds it to the first mpv instance
/// that initialized libav and is still alive (`init_libav`/`uninit_libav` in mpv's
/// `common/av_log.c`): every other instance in the process never sees ffmpeg's lines. Seen
/// here when several players ran at once in one test process: "stream: Failed to open …"
/// (mpv's own line) arrived, "HTTP error 404" did not. So when the line is missing, the
/// player asks once through this probe.
public protocol MediaURLProbe: Sendable {
    /// The status a `GET` of `url` with `Range: bytes=0-0` is answered with, or nil when
    /// there was no HTTP answer at all (refused, timed out). Should give up within a few
    /// seconds: the item's `finished` waits for the answer. Send the same User-Agent mpv
    /// sends, so a server that filters by it answers the probe as it answered mpv.
    func status(of url: String) async -> Int?
}

/// Which URLs a probe is asked about.
enum MediaURLProbing {
    /// Whether `url` is one a probe can ask about (http or https).
    static func canProbe(_ url: String) -> Bool {
        let lowered = url.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }
}
