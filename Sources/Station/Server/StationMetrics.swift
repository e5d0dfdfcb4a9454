import Foundation
import Metrics
import Prometheus
import Synchronization

/// The station's metrics, in Prometheus' text format at `GET /metrics`: what a household's
/// Prometheus (or Grafana through it) scrapes. Made through swift-metrics' API over the
/// station's own registry (``StationMetricsFactory``), one per station.
///
/// Counted as it happens: requests by route family and status, with a latency histogram
/// per family (to the answer's head: a song streamed for minutes is not a slow answer);
/// the live edge's answers; transcodes started; failed logins; library scans with their
/// time (a rescan runs every minute, changed or not: what it costs shows here). Set at each
/// scrape from what the station holds: the library and its analysis, the transcodes
/// cached, the channels on the air and their listeners. Nothing about any one listener.
final class StationMetrics: Sendable {
    /// The metrics' names and help texts (`# HELP`), one table: the factory reads it.
    static let help: [String: String] = [
        "mhz_http_requests_total": "HTTP requests answered by the station's router, by route family and status.",
        "mhz_http_request_duration_seconds": "Time from a request to its answer's head, by route family.",
        "mhz_live_edge_answers_total": "Live playlists and segments answered on the connection's fast path, by kind.",
        "mhz_transcodes_started_total": "MP3 transcodes started (a song at a bit rate and gain not cached yet).",
        "mhz_transcodes_cached": "MP3 transcodes kept in the station's cache.",
        "mhz_login_failures_total": "Failed logins (an unknown account, a wrong password or captcha), both API families.",
        "mhz_library_tracks": "Tracks the station serves.",
        "mhz_library_scan_duration_seconds": "Time each library scan took, the first and every rescan, changed or not.",
        "mhz_sound_analysed_tracks": "Tracks whose sound the station has measured.",
        "mhz_sound_unreadable_files": "Files the sound analysis could not read.",
        "mhz_uptime_seconds": "Seconds since the station started.",
        "mhz_live_listeners": "Listeners of a channel on the air, by channel.",
    ]

    /// Every family ``family(of:)`` names.
    static let families = ["player", "app", "web", "lyric", "media", "cover", "live", "operator", "other"]

    /// The route families requests are counted by: the path's first part, as the station's
    /// routes group (docs/PROTOCOL.md §9); anything else is `other`, so a scanner's guesses
    /// cannot grow the label set.
    static func family(of path: String) -> String {
        if path == "/" || path.hasPrefix("/web/") { return "player" }
        if path.hasPrefix("/j/app/") { return "app" }
        if path.hasPrefix("/j/mine/") || path.hasPrefix("/j/v2/playlist") || path.hasPrefix("/j/login")
            || path.hasPrefix("/j/new_captcha") || path.hasPrefix("/misc/") || path.hasPrefix("/partner/") { return "web" }
        if path.hasPrefix("/v2/fm/lyric") || path.hasPrefix("/j/v2/lyric") { return "lyric" }
        if path.hasPrefix("/media/") { return "media" }
        if path.hasPrefix("/cover/") { return "cover" }
        if path.hasPrefix("/live/") { return "live" }
        if path == "/status" || path == "/metrics" { return "operator" }
        return "other"
    }

    private let factory: StationMetricsFactory
    private let transcodesStarted: Metrics.Counter
    private let loginFailures: Metrics.Counter
    private let transcodesCached: Meter
    private let tracks: Meter
    private let analysed: Meter
    private let unreadable: Meter
    private let uptime: Meter
    /// Every library scan's duration: its count is the scans done, its sum their time.
    private let scans: Metrics.Timer
    /// Channels given a listeners gauge: one gone off the air is set to 0.
    private let channels = Mutex<Set<String>>([])
    /// Each family's latency histogram, made once: every request records into one.
    private let durations: [String: Metrics.Timer]
    /// Each family's and status' request counter, made at its first request (the statuses
    /// are the station's own few), so a request costs a lookup, not a registration.
    private let requests = Mutex<[String: Metrics.Counter]>([:])
    /// The live edge's counters, by kind.
    private let edgeAnswers: [String: Metrics.Counter]

    /// A station's metrics, in a registry of their own.
    init() {
        factory = StationMetricsFactory(registry: PrometheusCollectorRegistry())
        transcodesStarted = Metrics.Counter(label: "mhz_transcodes_started_total", factory: factory)
        loginFailures = Metrics.Counter(label: "mhz_login_failures_total", factory: factory)
        transcodesCached = Meter(label: "mhz_transcodes_cached", factory: factory)
        tracks = Meter(label: "mhz_library_tracks", factory: factory)
        analysed = Meter(label: "mhz_sound_analysed_tracks", factory: factory)
        unreadable = Meter(label: "mhz_sound_unreadable_files", factory: factory)
        uptime = Meter(label: "mhz_uptime_seconds", factory: factory)
        scans = Metrics.Timer(label: "mhz_library_scan_duration_seconds", factory: factory)
        let factory = self.factory
        durations = Dictionary(uniqueKeysWithValues: Self.families.map { family in
            (family, Metrics.Timer(label: "mhz_http_request_duration_seconds", dimensions: [("family", family)], factory: factory))
        })
        edgeAnswers = Dictionary(uniqueKeysWithValues: ["playlist", "segment"].map { kind in
            (kind, Metrics.Counter(label: "mhz_live_edge_answers_total", dimensions: [("kind", kind)], factory: factory))
        })
    }

    /// Counts a request the router answered with `status` after `duration`.
    func request(path: String, status: Int, duration: Duration) {
        let family = Self.family(of: path)
        let key = "\(family) \(status)"
        let counter = requests.withLock { counters in
            if let made = counters[key] { return made }
            let made = Metrics.Counter(label: "mhz_http_requests_total",
                                       dimensions: [("family", family), ("status", String(status))], factory: factory)
            counters[key] = made
            return made
        }
        counter.increment()
        durations[family]?.record(duration: duration)
    }

    /// Counts a live answer given on the connection's fast path (`playlist` or `segment`).
    func liveEdge(_ kind: String) {
        edgeAnswers[kind]?.increment()
    }

    /// Counts a transcode started.
    func transcodeStarted() { transcodesStarted.increment() }

    /// Counts a failed login.
    func loginFailed() { loginFailures.increment() }

    /// Counts a library scan that took `duration`.
    func libraryScanned(in duration: Duration) { scans.record(duration: duration) }

    /// The exposition: the gauges set from `status` and `cachedTranscodes` first.
    func exposition(_ status: StationStatus, cachedTranscodes: Int) -> [UInt8] {
        tracks.set(status.tracks)
        analysed.set(status.analysed)
        unreadable.set(status.unreadable)
        uptime.set(status.uptime)
        transcodesCached.set(cachedTranscodes)
        let onAir = Dictionary(status.live.map { ($0.channel, $0.listeners) }, uniquingKeysWith: { first, _ in first })
        let known = channels.withLock { known in
            known.formUnion(onAir.keys)
            return known
        }
        for channel in known.sorted() {
            Meter(label: "mhz_live_listeners", dimensions: [("channel", channel)], factory: factory).set(onAir[channel] ?? 0)
        }
        return factory.registry.emitToBuffer()
    }
}
