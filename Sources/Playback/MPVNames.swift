// Every mpv option, command, property and argument name the Playback layer uses, in one
// place, so a typo is a compile error and a grep finds every use.
// Manual (mpv 0.35): https://mpv.io/manual/stable/#options, #list-of-input-commands, #properties

/// mpv options set before `mpv_initialize` (see `PlayerOptions.mpvSettings`).
enum MPVOption: String, Sendable, CaseIterable {
    /// Audio output driver; `null` plays in real time without a device.
    case audioOutput = "ao"
    /// Video track selection; `no` keeps mpv from decoding cover art or video.
    case videoTrack = "vid"
    /// Video output driver; `null` keeps mpv from opening a window.
    case videoOutput = "vo"
    /// Whether mpv loads its bundled Lua scripts (ytdl_hook among them).
    case loadScripts = "load-scripts"
    /// youtube-dl/yt-dlp hook; on a failed plain URL it would spawn yt-dlp and refetch.
    case ytdl = "ytdl"
    /// The stats overlay script, built into mpv and loaded even without `load-scripts`.
    case loadStatsOverlay = "load-stats-overlay"
    /// The OSD console script, built in likewise.
    case loadOSDConsole = "load-osd-console"
    /// The script that applies conditional profiles, built in likewise.
    case loadAutoProfiles = "load-auto-profiles"
    /// The on-screen controller script, built in likewise.
    case osc = "osc"
    /// Keep the core alive with an empty playlist instead of quitting.
    case idle = "idle"
    /// mpv's own terminal output and input; the TUI owns the terminal.
    case terminal = "terminal"
    /// Default key bindings (we take no input through mpv).
    case inputDefaultBindings = "input-default-bindings"
    /// Keyboard input through a video window.
    case inputVOKeyboard = "input-vo-keyboard"
    /// Seconds before a stalled network read fails the file.
    case networkTimeout = "network-timeout"
    /// The demuxer cache.
    case cache = "cache"
    /// Forward cache size cap.
    case demuxerMaxBytes = "demuxer-max-bytes"
    /// Backward cache size cap (what a seek back can reuse).
    case demuxerMaxBackBytes = "demuxer-max-back-bytes"
    /// How far ahead the demuxer reads.
    case demuxerReadaheadSeconds = "demuxer-readahead-secs"
    /// AVOptions for libavformat; `allowed_extensions=ALL` lets local AES-128 HLS open its key.
    case demuxerLavfOptions = "demuxer-lavf-o"
    /// Gapless audio between playlist entries.
    case gaplessAudio = "gapless-audio"
    /// Open the next playlist entry while the current one is still playing.
    case prefetchPlaylist = "prefetch-playlist"
    /// AVOptions for libavformat's network protocols (ffmpeg's own HTTP reconnects).
    case streamLavfOptions = "stream-lavf-o"
    /// Whether embedded cover art is shown as video.
    case audioDisplay = "audio-display"
    /// HTTP User-Agent for media requests.
    case userAgent = "user-agent"
    /// Extra HTTP request headers (a string list).
    case httpHeaderFields = "http-header-fields"
    /// Initial volume, percent.
    case volume = "volume"
}

/// mpv input commands.
enum MPVCommand: String, Sendable {
    /// `loadfile <url> [<flags> [<options>]]`; replies with `playlist_entry_id`.
    case loadFile = "loadfile"
    /// `seek <target> [<flags>]`.
    case seek = "seek"
    /// Stops playback and clears the playlist.
    case stop = "stop"
    /// Shuts the core down; every client then receives `MPV_EVENT_SHUTDOWN`.
    case quit = "quit"
    /// Does nothing; sent asynchronously as an ordering marker in the event queue.
    case ignore = "ignore"
    /// `playlist-next`: ends the current entry (reason stop) and starts the next one.
    case playlistNext = "playlist-next"
    /// `playlist-remove <index>`.
    case playlistRemove = "playlist-remove"
}

/// Named arguments and flag values of `MPVCommand`s (used with `mpv_command_node`, which
/// takes a map and so survives mpv inserting positional arguments, as 0.38 did for loadfile).
enum MPVArgument {
    /// The command name key of a named-argument map.
    static let name = "name"
    /// loadfile: the URL or path.
    static let url = "url"
    /// loadfile: `replace` / `append` / `append-play`.
    static let flags = "flags"
    /// loadfile: per-file options, `key=value,...`.
    static let options = "options"
    /// loadfile flag: replace the playlist and play this entry now.
    static let replace = "replace"
    /// loadfile flag: append to the playlist without starting it.
    static let append = "append"
    /// loadfile flag: append to the playlist, and start it if nothing is playing.
    static let appendPlay = "append-play"
    /// loadfile per-file option: start position in seconds.
    static let start = "start"
    /// loadfile per-file option: the file's audio filter chain (mpv's `af`), which replaces
    /// the global one while that file plays.
    static let audioFilters = "af"
    /// The key of loadfile's reply holding the new entry's id.
    static let playlistEntryID = "playlist_entry_id"
    /// seek target flags for `seek(to:)`: precise even where keyframe seeks are the default.
    static let absoluteExact = "absolute+exact"
    /// seek target flags for `seek(by:)`.
    static let relativeExact = "relative+exact"

    /// A number as mpv parses it: "10" rather than "10.0" when whole, and always "." as the
    /// decimal separator (Swift's description ignores the locale).
    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// Properties read, set or observed.
enum MPVProperty: String, Sendable, CaseIterable {
    /// Playback position in seconds; unavailable while idle or loading.
    case timePosition = "time-pos"
    /// Length of the current file in seconds; unavailable until known.
    case duration = "duration"
    /// Paused flag.
    case pause = "pause"
    /// Volume in percent.
    case volume = "volume"
    /// Mute flag (independent of the volume level).
    case mute = "mute"
    /// True while playback waits for the network to refill the cache (a stall).
    case pausedForCache = "paused-for-cache"
    /// The current file's tags (ID3/Vorbis/ICY…), a map of strings; unavailable when idle.
    case metadata = "metadata"
    /// The playlist: an array of maps with `id`, `filename`, `current`, `playing`.
    case playlist = "playlist"
    /// Audio outputs mpv can use: an array of maps with `name` and `description`.
    case audioDeviceList = "audio-device-list"
    /// The chosen audio device, `auto` or `<driver>/<device>`.
    case audioDevice = "audio-device"
    /// The audio output driver in use; unavailable when none is open.
    case currentAudioOutput = "current-ao"
    /// The audio filter chain of the file playing (its per-file `af`, else the global one).
    case audioFilters = "af"

    /// The format the player observes this property in; nil for properties it only reads.
    var observedFormat: MPVValueFormat? {
        switch self {
        case .timePosition, .duration, .volume: .double
        case .pause, .mute, .pausedForCache: .flag
        case .metadata: .node
        case .playlist, .audioDeviceList, .audioDevice, .currentAudioOutput, .audioFilters: nil
        }
    }
}

/// The few `mpv_format`s the layer reads and writes.
enum MPVValueFormat: Sendable {
    /// `MPV_FORMAT_DOUBLE`.
    case double
    /// `MPV_FORMAT_FLAG` (an `int`, 0 or 1).
    case flag
    /// `MPV_FORMAT_NODE` (maps and arrays, copied into `MPVNode`).
    case node
}
