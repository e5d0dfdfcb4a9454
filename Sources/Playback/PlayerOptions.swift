/// How to configure the mpv instance a `PlayerController` creates. The defaults suit a
/// radio: audio only, no scripts, a small cache, mpv's default audio output.
public struct PlayerOptions: Sendable {
    /// mpv `ao`, e.g. `"null"` for tests and benchmarks; nil keeps mpv's default choice.
    public var audioOutput: String?
    /// false sets `vid=no` and `vo=null`; true leaves mpv's video defaults (it may open a window).
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

    /// Creates options; every parameter has a radio-friendly default.
    public init(
        audioOutput: String? = nil,
        video: Bool = false,
        userAgent: String? = nil,
        httpHeaders: [String] = [],
        networkTimeout: Double = 10,
        initialVolume: Int = 100,
        extraOptions: [(String, String)] = []
    ) {
        self.audioOutput = audioOutput
        self.video = video
        self.userAgent = userAgent
        self.httpHeaders = httpHeaders
        self.networkTimeout = networkTimeout
        self.initialVolume = initialVolume
        self.extraOptions = extraOptions
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
            // URL that fails and refetches it (spike §9.2). Neither belongs in a radio.
            (.loadScripts, .string("no")),
            (.ytdl, .string("no")),
            // Without idle the core quits when the playlist runs empty, killing the handle.
            (.idle, .string("yes")),
            (.terminal, .string("no")),
            (.inputDefaultBindings, .string("no")),
            (.inputVOKeyboard, .string("no")),
            (.networkTimeout, .string(MPVArgument.number(networkTimeout))),
            // Radio-sized cache: a song or two ahead, a little behind for seeking back.
            (.cache, .string("yes")),
            (.demuxerMaxBytes, .string("16MiB")),
            (.demuxerMaxBackBytes, .string("4MiB")),
            (.demuxerReadaheadSeconds, .string("30")),
            // Local AES-128 HLS downloads keep their key in a file whose extension libavformat
            // blocks otherwise ("not a common multimedia extension", spike §6).
            (.demuxerLavfOptions, .string("allowed_extensions=ALL")),
            (.gaplessAudio, .string("weak")),
            (.audioDisplay, .string("no")),
            (.volume, .string(String(Self.clampVolume(initialVolume)))),
        ]
        if !video {
            settings += [(.videoTrack, .string("no")), (.videoOutput, .string("null"))]
        }
        if let audioOutput { settings.append((.audioOutput, .string(audioOutput))) }
        if let userAgent { settings.append((.userAgent, .string(userAgent))) }
        if !httpHeaders.isEmpty { settings.append((.httpHeaderFields, .list(httpHeaders))) }
        return settings.map { (name: $0.0.rawValue, value: $0.1) }
            + extraOptions.map { (name: $0.0, value: .string($0.1)) }
    }

    /// Volumes outside 0–100 are clamped (mpv itself would accept up to `volume-max`, 130).
    static func clampVolume(_ percent: Int) -> Int { min(max(percent, 0), 100) }
}
