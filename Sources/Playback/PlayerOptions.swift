/// How to configure the mpv instance a `PlayerController` creates. The defaults suit a
/// radio: audio only, no scripts, a cache that holds a whole song, gapless hand-over to a
/// prefetched next item, mpv's default audio output, and recovery from broken streams.
public struct PlayerOptions: Sendable {
    /// mpv `ao`, e.g. `"null"` for tests and benchmarks; nil keeps mpv's default choice.
    public var audioOutput: String?
    /// false sets `vid=no` and `vo=null` (audio only). true plays video tracks in mpv's own
    /// window (`vo=gpu,x11,wlshm`); `PlayerController.init` then throws `.noDisplay` when
    /// there is no X11 or Wayland display (see `VideoDisplay`).
    public var video: Bool
    /// mpv `user-agent` for media requests; nil keeps mpv's own.
    public var userAgent: String?
    /// Extra request headers, each a plain `"Name: value"` string. Passed to mpv as a list
    /// node, so values may contain commas without escaping.
    public var httpHeaders: [String]
    /// mpv `network-timeout` in seconds.
    public var networkTimeout: Double
    /// The volume at start, 0–100 (clamped).
    public var initialVolume: Int
    /// Further mpv options as name/value strings, applied last so they override the above.
    public var extraOptions: [(String, String)]
    /// How broken streams are recovered.
    public var recovery: RecoveryPolicy
    /// When mpv cannot open an http(s) URL and its log did not carry the HTTP status, the
    /// player asks this probe once, so the item can finish with `.mediaUnavailable(status:)`
    /// (see `MediaURLProbe` for why the log can miss it). nil reports such failures as
    /// `.error("loading failed")`. Playback does no HTTP itself: the owner supplies it.
    public var statusProbe: (any MediaURLProbe)?

    /// Creates options; every parameter has a radio-friendly default.
    public init(
        audioOutput: String? = nil,
        video: Bool = false,
        userAgent: String? = nil,
        httpHeaders: [String] = [],
        networkTimeout: Double = 10,
        initialVolume: Int = 100,
        extraOptions: [(String, String)] = [],
        recovery: RecoveryPolicy = RecoveryPolicy(),
        statusProbe: (any MediaURLProbe)? = nil
    ) {
        self.audioOutput = audioOutput
        self.video = video
        self.userAgent = userAgent
        self.httpHeaders = httpHeaders
        self.networkTimeout = networkTimeout
        self.initialVolume = initialVolume
        self.extraOptions = extraOptions
        self.recovery = recovery
        self.statusProbe = statusProbe
    }
}

/// The value of one mpv option as it is handed to libmpv.
enum MPVOptionValue: Sendable, Equatable {
    /// Set with `mpv_set_option_string`.
    case string(String)
    /// Set with `mpv_set_option` and an `MPV_FORMAT_NODE_ARRAY` of strings, which needs no
    /// escaping (a string-list option given as one string splits at every comma).
    case list([String])
}

extension PlayerOptions {
    /// Every option the controller sets before `mpv_initialize`, in order.
    var mpvSettings: [(name: String, value: MPVOptionValue)] {
        var settings: [(MPVOption, MPVOptionValue)] = [
            // Plain libmpv would load its Lua scripts; ytdl_hook then spawns yt-dlp for any
            // URL that fails and refetches it through a helper process. Neither belongs in a radio.
            (.loadScripts, .string("no")),
            (.ytdl, .string("no")),
            // mpv's built-in Lua scripts (stats, console, auto profiles, on-screen controller)
            // serve mpv's own window and keys, which mhz does not use: each runs a Lua VM on a
            // thread of its own, about 9 MiB and a few milliseconds of start-up together.
            (.loadStatsOverlay, .string("no")),
            (.loadOSDConsole, .string("no")),
            (.loadAutoProfiles, .string("no")),
            (.osc, .string("no")),
            // Without idle the core quits when the playlist runs empty, killing the handle.
            (.idle, .string("yes")),
            (.terminal, .string("no")),
            (.inputDefaultBindings, .string("no")),
            (.inputVOKeyboard, .string("no")),
            (.networkTimeout, .string(MPVArgument.number(networkTimeout))),
            // ffmpeg's own HTTP reconnect (mpv sets reconnect=1, reconnect_delay_max=7 and then
            // applies stream-lavf-o, so this overrides it): short, so a connection that stays
            // down reaches the player's visible, bounded recovery soon (RecoveryPolicy).
            (.streamLavfOptions, .string("reconnect_delay_max=\(recovery.transportReconnectMaxDelay)")),
            // Radio-sized cache: with the cache on, mpv reads ahead until demuxer-max-bytes, so
            // a whole song (16 MiB is ~7 min at 320 kbit/s) is fetched at once and a network
            // drop mid-song rarely matters. Little is kept behind: 1 MiB is a minute of a
            // 128 kbit/s song, enough for the 10-second seek-back key; a longer way back is
            // read again from the source.
            (.cache, .string("yes")),
            (.demuxerMaxBytes, .string("16MiB")),
            (.demuxerMaxBackBytes, .string("1MiB")),
            (.demuxerReadaheadSeconds, .string("30")),
            // Local AES-128 HLS downloads keep their key in a file whose extension libavformat
            // blocks otherwise: without this mpv refuses the key file as "not a common multimedia extension".
            (.demuxerLavfOptions, .string("allowed_extensions=ALL")),
            // Gapless hand-over to the queued item, opened (prefetched) while the current one
            // still plays, so a natural end or `advance()` does not wait for the network.
            // "yes" rather than mpv's "weak": keep the device open even when the next item's
            // sample format differs (mpv converts), so songs of mixed formats join too.
            (.gaplessAudio, .string("yes")),
            (.prefetchPlaylist, .string("yes")),
            (.audioDisplay, .string("no")),
            (.volume, .string(String(Self.clampVolume(initialVolume)))),
        ]
        if video {
            // Only outputs that open a window: mpv's automatic probing would fall back to drm
            // (takes over the console) or sdl (on a headless box it probed for 2.5 s and then
            // "succeeded" invisibly, measured with 0.35.1).
            settings.append((.videoOutput, .string("gpu,x11,wlshm")))
        } else {
            settings += [(.videoTrack, .string("no")), (.videoOutput, .string("null"))]
        }
        if let audioOutput { settings.append((.audioOutput, .string(audioOutput))) }
        if let userAgent { settings.append((.userAgent, .string(userAgent))) }
        if !httpHeaders.isEmpty { settings.append((.httpHeaderFields, .list(httpHeaders))) }
        return settings.map { (name: $0.0.rawValue, value: $0.1) }
            + extraOptions.map { (name: $0.0, value: .string($0.1)) }
    }

    /// Whether the audio output mpv is given writes as fast as it decodes instead of at the
    /// pace of a device: `pcm` (a WAV or raw file), the last `ao` set, its first choice.
    var writesUntimed: Bool {
        guard let output = mpvSettings.last(where: { $0.name == MPVOption.audioOutput.rawValue }),
              case .string(let choices) = output.value else { return false }
        return choices.split(separator: ",").first.map { $0.split(separator: ":").first == "pcm" } ?? false
    }

    /// Volumes outside 0–100 are clamped (mpv itself would accept up to `volume-max`, 130).
    static func clampVolume(_ percent: Int) -> Int { min(max(percent, 0), 100) }
}
