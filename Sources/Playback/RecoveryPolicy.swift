import Backoff

/// How the player recovers an item whose stream breaks mid-play, in two layers:
///
/// 1. ffmpeg's own HTTP reconnects, which mpv switches on (`reconnect=1`): after a dropped
///    connection or a read that outlasts `network-timeout`, ffmpeg re-requests the file with
///    `Range: bytes=<offset>-` after waits of 0, 1, 3, 7… seconds while a wait does not
///    exceed `transportReconnectMaxDelay`. Invisible to the caller except as `buffering`.
/// 2. When those give up, mpv ends the item early (END_FILE `eof` short of the duration,
///    after ffmpeg logged "Stream ends prematurely"), or a stall outlasts `stallTimeout`: the
///    player reloads the URL at the last position, up to `maxAttempts` times, waiting
///    `delay(forAttempt:)` before each, and reports `recovering`/`recovered`/`gaveUp`.
public struct RecoveryPolicy: Sendable, Equatable {
    /// Reload attempts per incident; 0 switches layer 2 off (a broken stream then just
    /// finishes, with `.eof` or `.error`). An attempt that gets playback ≥ 1 s past where the
    /// incident began ends the incident, so a later break starts counting afresh.
    public var maxAttempts: Int
    /// The waits before reloads. No jitter: the waits are decided inside the player's pure
    /// event translator, and one listener's reloads do not stampede a media server.
    public var backoff: Backoff
    /// Seconds of uninterrupted `buffering` after which the item is reloaded anyway (a
    /// connection that trickles too slowly never times out on its own).
    public var stallTimeout: Double
    /// ffmpeg's `reconnect_delay_max` in whole seconds (mpv's own default is 7, i.e. waits of
    /// 0+1+3+7 s ≈ 11 s before layer 2 gets a chance). 0 allows one immediate reconnect.
    public var transportReconnectMaxDelay: Int
    /// How short of the known duration an `eof` must be to count as a break, seconds; mp3
    /// durations are estimates, so a song ending a little early is not a break.
    public var endTolerance: Double

    /// Creates a policy; the defaults give a radio about 2 + 1+2+4+8 s before giving up.
    public init(maxAttempts: Int = 4, backoff: Backoff = Backoff(initial: 1, cap: 8),
                stallTimeout: Double = 20, transportReconnectMaxDelay: Int = 1, endTolerance: Double = 2) {
        self.maxAttempts = max(0, maxAttempts)
        self.backoff = backoff
        self.stallTimeout = max(0.1, stallTimeout)
        self.transportReconnectMaxDelay = max(0, transportReconnectMaxDelay)
        self.endTolerance = max(0, endTolerance)
    }

    /// No player-level recovery: broken streams finish as mpv reports them.
    public static let disabled = RecoveryPolicy(maxAttempts: 0)

    /// The wait before attempt `attempt` (1-based), seconds.
    public func delay(forAttempt attempt: Int) -> Double {
        backoff.delay(attempt: max(0, attempt - 1))
    }
}
