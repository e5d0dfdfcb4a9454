import Settings
import Foundation
import HTTP
import Playback
import Radio
import RadioAPI
import Scrobble

/// Every key `config.toml` may hold, with what it takes, its default and what it does: the
/// manual's CONFIGURATION section is made from this table. The defaults are read from the
/// values the code falls back on, so the manual cannot tell another default than the one
/// in effect; a test holds the table to the keys the parsers accept.
enum ConfigReference {
    /// One key of the file.
    struct Entry: Sendable, Equatable {
        /// The table it belongs to (`downloads`, `hooks`, `station`), nil at the top level.
        var table: String?
        /// The key.
        var name: String
        /// What it takes, e.g. `URL`, `1-16`, `true|false`.
        var value: String
        /// What applies when the key is absent, in words.
        var fallback: String
        /// What it does, in a sentence or two.
        var summary: String
    }

    /// The tables in the manual's order; nil is the top level. `[keys]` is described apart,
    /// beside the key table.
    static let tables: [String?] = [nil, "station", "radio", "downloads", "hooks", "scrobble", "live"]

    /// The keys in the order the manual lists them.
    static var entries: [Entry] { topLevel + station + radio + downloads + hooks + scrobble + live }

    /// The top-level keys.
    static var topLevel: [Entry] {
        let http = HTTPConfiguration()
        return [
            Entry(name: "server", value: "URL", fallback: "none (the embedded station over library)",
                  summary: "The station to play from (--server wins)."),
            Entry(name: "api", value: "app|web", fallback: APIFamily.app.rawValue,
                  summary: "The API family of server (--api wins); the embedded station speaks app."),
            Entry(name: "channel", value: "ID", fallback: "the channel of the last session, else 0",
                  summary: "The channel to start on (--channel wins)."),
            Entry(name: "audio_output", value: "NAME", fallback: "mpv's choice",
                  summary: "mpv's audio output (ao): pulse, alsa, pipewire, null (--audio-output wins)."),
            Entry(name: "library", value: "DIR", fallback: Config.defaultLibrary + ", else a demo library made on first run",
                  summary: "The music folder the embedded station serves (--library wins)."),
            Entry(name: "volume", value: "0-100", fallback: String(Config.defaultVolume), summary: "The volume at start."),
            Entry(name: "long_item_minutes", value: "MINUTES",
                  fallback: number(RadioMachine.Configuration().longItemSeconds / 60),
                  summary: "Items longer than this resume where they were left whenever they play again."),
            Entry(name: "proxy", value: "URL", fallback: "the http_proxy family of variables",
                  summary: "Proxy for the station's API (http://, socks5h://); \"\" for none, the environment's included."),
            Entry(name: "verify_tls", value: "true|false", fallback: String(http.verifyTLS),
                  summary: "TLS certificate and host name checks; only false here turns them off."),
            Entry(name: "app_name", value: "NAME", fallback: AppEndpoints(baseURL: RadioRuntime.embeddedBase).appName,
                  summary: "The app family's app_name parameter."),
            Entry(name: "timeout", value: "SECONDS", fallback: number(http.totalTimeout),
                  summary: "Seconds an API request may take in all (1-600)."),
            Entry(name: "stream_timeout", value: "SECONDS", fallback: number(PlayerOptions().networkTimeout),
                  summary: "Seconds a song's stream may send nothing before the player asks again from where it was (1-600)."),
            Entry(name: "user_agent", value: "TEXT", fallback: http.userAgent,
                  summary: "The User-Agent of API and media requests."),
            Entry(name: "notify", value: "true|false", fallback: String(Config().notify),
                  summary: "A desktop notification for each new song."),
            Entry(name: "mpris", value: "true|false", fallback: String(Config().mpris),
                  summary: "The radio on the session bus as an MPRIS player (media keys, playerctl)."),
        ]
    }

    /// `[live]`, read by mhz serve and by the embedded station `mhz --live` serves.
    static var live: [Entry] {
        [
            Entry(table: "live", name: "always", value: "[ID, ...]", fallback: "none",
                  summary: "Channels mhz serve (and the embedded station of mhz --live) keeps on the air from its "
                      + "start, for their look-back; the others are broadcast from their first listener until 10 "
                      + "minutes without one."),
            Entry(table: "live", name: "lookback", value: "TIME", fallback: "\"\(LiveSettings.defaultLookbackSeconds / 3600)h\"",
                  summary: "How long mhz serve (and the embedded station of mhz --live) keeps a live channel's "
                      + "segments (\"90m\", \"1h30m\"), for ?begintime= and aired.json."),
            Entry(table: "live", name: "crossfade", value: "TIME", fallback: "\"\(LiveSettings.defaultCrossfadeSeconds)s\"",
                  summary: "How long a live channel plays the end of one song over the start of the next, on an "
                      + "equal-power curve (at most \(LiveSettings.longestCrossfadeSeconds)s); \"0s\" for hard cuts."),
        ]
    }

    /// `[radio]`.
    static var radio: [Entry] {
        [
            Entry(table: "radio", name: "variety", value: "0-1", fallback: "the station's own (0.5 for mhz serve)",
                  summary: "How adventurous the personal channel is: 0 only what you love, 1 much you have not heard; "
                      + "sent as variety= (mhz's station reads it, Douban ignores it). "
                      + "The [ and ] keys turn it while playing."),
            Entry(table: "radio", name: "loudness", value: "true|false", fallback: String(RadioSettings().loudness),
                  summary: "Play each song at the level its station gives (its answers' gain, from mhz's station), "
                      + "so songs mastered apart sound alike; the volume keys, seeking and pausing are as ever. "
                      + "mhz's own player does not crossfade: live channels do ([live] crossfade)."),
        ]
    }

    /// `[station]`.
    static var station: [Entry] {
        [
            Entry(table: "station", name: "quality", value: StationSettings.acceptedQualities.replacingOccurrences(of: ", ", with: "|"),
                  fallback: StationSettings.defaultQuality.text,
                  summary: "What is asked of the station for each song: original (format=original) is the file itself, "
                      + "e.g. FLAC from mhz serve; a number asks for MP3 at that bit rate (kbps=). "
                      + "A server that knows no format=original answers as it always does."),
            Entry(table: "station", name: "loudness",
                  value: StationLoudness.allCases.map(\.rawValue).joined(separator: "|"), fallback: StationSettings().loudness.rawValue,
                  summary: "How the station mhz serves (mhz serve, or the embedded one) levels its songs, measured by "
                      + "EBU R 128 as it hears them: track brings each song to loudness_target, album each album "
                      + "(its songs as mastered against each other), off leaves them. Its MP3s and live channels "
                      + "are made at the level, format=original stays the file with the gain beside it in the answer; "
                      + "no song is raised past -1 dBTP."),
            Entry(table: "station", name: "loudness_target",
                  value: "\(number(StationSettings.loudnessTargets.lowerBound)) to \(number(StationSettings.loudnessTargets.upperBound))",
                  fallback: number(StationSettings.defaultLoudnessTarget),
                  summary: "The loudness (LUFS) the station levels songs to; -18 is ReplayGain 2.0's, -14 a streaming service's."),
            Entry(table: "station", name: "metrics", value: "true|false", fallback: String(StationSettings().metrics),
                  summary: "Whether mhz serve answers GET /status (version, tracks, analysis, uptime, live channels; "
                      + "nothing personal) and GET /metrics (Prometheus' text format) to clients beyond loopback; "
                      + "the machine's own may always ask."),
        ]
    }

    /// `[downloads]`.
    static var downloads: [Entry] {
        [
            Entry(table: "downloads", name: "dir", value: "DIR", fallback: "downloads in the data directory",
                  summary: "Where downloaded songs go, named Artist - Title.ext."),
            Entry(table: "downloads", name: "max_concurrent", value: "1-16", fallback: String(DownloadSettings.defaultMaxConcurrent),
                  summary: "Songs fetched at once."),
            Entry(table: "downloads", name: "liked", value: "true|false", fallback: String(DownloadSettings().liked),
                  summary: "Download every song the moment it is liked."),
            Entry(table: "downloads", name: "quality", value: "KBPS|best|worst", fallback: DownloadSettings.defaultQuality.name,
                  summary: "What downloads ask of the station (best: the original; else its MP3 bit rate at or above) "
                      + "and the HLS variant (the lowest at or above it, else the highest); --quality wins."),
            Entry(table: "downloads", name: "stall_timeout", value: "SECONDS", fallback: number(DownloadSettings.defaultStallTimeout),
                  summary: "Seconds without a byte before a transfer is given up and retried."),
            Entry(table: "downloads", name: "segment_concurrency", value: "1-16",
                  fallback: String(DownloadSettings.defaultSegmentConcurrency), summary: "HLS segments fetched at once per download."),
        ]
    }

    /// `[hooks]`.
    static var hooks: [Entry] {
        [
            Entry(table: "hooks", name: "event", value: "PROGRAM", fallback: "none",
                  summary: "Run on every event with its name as the argument and its JSON line on stdin, one at a time."),
            Entry(table: "hooks", name: "timeout", value: "SECONDS", fallback: number(HookSettings().timeout),
                  summary: "A hook running longer is stopped with its children."),
        ]
    }

    /// `[scrobble]`.
    static var scrobble: [Entry] {
        [
            Entry(table: "scrobble", name: "listenbrainz_token", value: "TOKEN", fallback: "none (no ListenBrainz)",
                  summary: "Your ListenBrainz user token: each song is sent as playing now, and as a listen once it has "
                      + "played half its length or 4 minutes (songs over 30 s). mhz scrobble login listenbrainz sets it."),
            Entry(table: "scrobble", name: "listenbrainz_url", value: "URL", fallback: ListenBrainz.defaultURL.absoluteString,
                  summary: "The ListenBrainz API's root."),
            Entry(table: "scrobble", name: "lastfm_api_key", value: "KEY", fallback: "none (no Last.fm)",
                  summary: "Your Last.fm API account's key (last.fm/api/account/create)."),
            Entry(table: "scrobble", name: "lastfm_api_secret", value: "SECRET", fallback: "none",
                  summary: "That API account's shared secret; it signs every call and is never sent."),
            Entry(table: "scrobble", name: "lastfm_session_key", value: "KEY", fallback: "none",
                  summary: "Your listening account's session, written by mhz scrobble login lastfm; with it, songs are "
                      + "scrobbled (50 at a time from the outbox) and likes loved."),
            Entry(table: "scrobble", name: "lastfm_url", value: "URL", fallback: LastFM.defaultURL.absoluteString,
                  summary: "The Last.fm web service's root."),
        ]
    }

    /// The keys the parsers accept, by table (nil: the top level), to hold the table to them.
    static let parsedKeys: [String?: [String]] = [
        nil: Config.keys, "station": StationSettings.keys, "radio": RadioSettings.keys, "downloads": DownloadSettings.keys,
        "hooks": HookSettings.keys, "scrobble": ScrobbleSettings.keys, "live": LiveSettings.keys,
    ]

    /// `15` rather than `15.0`.
    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
