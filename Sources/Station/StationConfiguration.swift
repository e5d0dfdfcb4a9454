import Foundation
import Logging
import SoundFeatures

/// Everything a ``Station`` needs to know before it starts: where the music is, where its
/// own files live, where to listen, and who wants to watch the requests it receives.
public struct StationConfiguration: Sendable {
    /// The music folder to serve. `nil` selects the demo library synthesized under
    /// ``dataDirectory``; so does a missing folder or one without songs while
    /// ``fallsBackToDemo`` holds.
    public var library: URL?
    /// Whether a ``library`` that is missing or holds no song is served as the demo library
    /// (the default folder, `~/Music`, that nobody asked for), or is an error
    /// (``StationError/noSongs(path:extensions:)``, ``StationError/libraryUnreadable(path:reason:)``:
    /// a folder the listener named). True unless told otherwise.
    public var fallsBackToDemo: Bool
    /// The station's own data directory: its database (`station.sqlite`: accounts, tokens,
    /// feedback, scan cache), cover images (`covers/`) and the demo library
    /// (`demo-library/`).
    public var dataDirectory: URL
    /// The address to bind. Loopback by default: the embedded station is private to the
    /// process that starts it, and `mhz serve` opts into more.
    public var host: String
    /// The port to bind; `0` asks the kernel for a free one (the embedded default).
    public var port: Int
    /// A socket already bound and listening, inherited from whoever started the process
    /// (systemd's socket activation, or `mhz serve` re-executing itself on `SIGHUP`): the
    /// first ``Station/start()`` serves it instead of binding ``host`` and ``port``, and the
    /// root URL names its address. `nil` (the default) binds.
    public var listeningDescriptor: Int32?
    /// The certificate and key to serve HTTPS with; `nil` serves plain HTTP (the default,
    /// and what the embedded station uses). Checked when the station is created.
    public var tls: StationTLS?
    /// Seeds every random choice (song picks), so tests see the same lists on every run.
    /// `nil` draws a fresh seed.
    public var seed: UInt64?
    /// Called with every request the station receives, before it is answered, in arrival
    /// order. Tests and the embedded client use it to assert the exact requests sent.
    public var onRequest: (@Sendable (StationRequest) -> Void)?
    /// Where the station logs (each request at debug level, with credentials redacted).
    /// `nil` uses a logger labelled `mhz.station` at `warning` level, so a host that did not
    /// set up logging does not get the server's start-up lines on its standard output.
    public var logger: Logger?
    /// How long a login token stays valid (Douban: 180 days, the Windows app's captured traffic). Tests make it short.
    public var tokenLifetime: Duration
    /// How the station holds off an address that keeps presenting wrong tokens (see
    /// ``TokenGuard``); tests make the limits small.
    var tokenGuard = TokenGuard.Limits()
    /// How the station holds off an address that keeps failing to log in, in either family
    /// (see ``LoginGuard``); tests make the limits small.
    var loginGuard = LoginGuard.limits
    /// How long a connection may go without a complete request while no answer is being
    /// written before the station closes it: a client that connects and sends nothing,
    /// headers that never end (one byte a second), a keep-alive connection left open.
    /// ``idleTimeoutDefault`` unless tests shorten it.
    var idleTimeout = StationConfiguration.idleTimeoutDefault
    /// How long a connection refused as too large (413) is still read before it is closed
    /// (``OversizedBodyHandler``); tests shorten it.
    var lingerAfterRefusal = OversizedBodyHandler.lingerPeriod
    /// How long a request for a range of a transcode that starts ahead of its encoder waits
    /// for the encoder to get there before it is answered 503 (``TranscodeStreaming``);
    /// ``transcodeRangeWaitDefault`` unless tests change it.
    var transcodeRangeWait = StationConfiguration.transcodeRangeWaitDefault
    /// How often the library folder is rescanned while the station serves, so files added,
    /// changed or removed show up without a restart; `nil` rescans only on ``Station/rescan()``.
    /// A rescan rereads only new and changed files.
    public var rescanInterval: Duration?
    /// How long ``Station/stop()`` waits for requests in flight (a player still streaming a
    /// song) before cancelling them; ``Station/shutdownGracePeriod`` unless told otherwise.
    /// Tests lengthen it to tell a stop that waited from one that did not, whatever the load.
    public var shutdownGracePeriod: Duration
    /// Whether the station measures its tracks' sound after each scan, in the background on
    /// every core (``Station``; each file once, kept in the station database). True unless
    /// told otherwise: benchmarks of other things, and tests that need no sound, turn it off.
    public var analysesSound = true
    /// How the station levels what it plays (`[station] loudness` and `loudness_target`):
    /// its song answers' `gain`, its MP3 transcodes and its live channels alike. Each track
    /// at −18 LUFS unless told otherwise.
    public var leveling = Leveling()
    /// How the channels are broadcast live (`[live]` of `mhz serve`'s configuration).
    public var live = LiveConfiguration()
    /// Whether `GET /status` answers clients beyond loopback (`[station] metrics = true`);
    /// by default only the machine's own.
    public var statusForEveryone = false
    /// Passed by the sound analysis' workers before each file: tests hold it closed to show
    /// what the station does while it analyses.
    var soundAnalysisGate: AnalysisGate?
    /// Called on the analysis' thread each time the sound analysis has measured what it was
    /// given. Its threads leave many megabytes freed but still held by the allocator (decoded
    /// audio, one table after another: 40 MiB over 17 000 tracks); the composition root hands
    /// them back to the system here (glibc's `malloc_trim`), which the station cannot name.
    public var afterSoundAnalysis: (@Sendable () -> Void)?

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - library: the music folder, or `nil` for the demo library.
    ///   - fallsBackToDemo: whether a missing or songless `library` means the demo library
    ///     (true) or an error (false, for a folder the listener named).
    ///   - dataDirectory: the station's own data directory.
    ///   - host: the address to bind (default `127.0.0.1`).
    ///   - port: the port to bind (default `0`, ephemeral).
    ///   - tls: the certificate and key for HTTPS, or `nil` for plain HTTP.
    ///   - seed: fixed seed for deterministic song choices.
    ///   - onRequest: observer of every request received.
    ///   - logger: where to log; see ``logger``.
    ///   - tokenLifetime: how long a login token is valid (default 180 days).
    ///   - rescanInterval: how often to rescan while serving (default every minute).
    ///   - shutdownGracePeriod: how long a stop waits for requests in flight (default
    ///     ``Station/shutdownGracePeriod``).
    public init(library: URL?, fallsBackToDemo: Bool = true, dataDirectory: URL, host: String = "127.0.0.1", port: Int = 0,
                tls: StationTLS? = nil, seed: UInt64? = nil, onRequest: (@Sendable (StationRequest) -> Void)? = nil,
                logger: Logger? = nil, tokenLifetime: Duration = .seconds(180 * 86_400),
                rescanInterval: Duration? = .seconds(60),
                shutdownGracePeriod: Duration = Station.shutdownGracePeriod) {
        self.library = library
        self.fallsBackToDemo = fallsBackToDemo
        self.dataDirectory = dataDirectory
        self.host = host
        self.port = port
        self.tls = tls
        self.seed = seed
        self.onRequest = onRequest
        self.logger = logger
        self.tokenLifetime = tokenLifetime
        self.rescanInterval = rescanInterval
        self.shutdownGracePeriod = shutdownGracePeriod
    }

    /// The default of ``idleTimeout``: 30 seconds, as long as a client on a slow line needs
    /// to send a request's head, and short enough that a slow client holds a connection
    /// for half a minute rather than for good. An answer being written (a song streaming
    /// to a paused player) is never cut by it: ``IdleTimeoutHandler``, like Hummingbird's
    /// `HTTPConnectionStateHandler` whose rules it keeps, leaves such a connection be ("if
    /// we've read the request and are still responding do nothing").
    static let idleTimeoutDefault: Duration = .seconds(30)

    /// The default of ``transcodeRangeWait``: 5 seconds, in which the encoder makes some
    /// minutes of a song even on a busy machine; a seek further ahead is asked again.
    static let transcodeRangeWaitDefault: Duration = .seconds(5)

    /// The folder the demo library is synthesized into.
    public var demoLibraryDirectory: URL {
        dataDirectory.appendingPathComponent("demo-library", isDirectory: true)
    }

    /// The folder songs transcoded to MP3 are cached in (``TranscodeCache``).
    var transcodeDirectory: URL {
        dataDirectory.appendingPathComponent("transcoded", isDirectory: true)
    }

    /// The folder the live broadcasts keep their segments in, a folder per channel.
    var liveDirectory: URL {
        dataDirectory.appendingPathComponent("live", isDirectory: true)
    }

    /// The folder cover images are kept in.
    var coverDirectory: URL {
        dataDirectory.appendingPathComponent("covers", isDirectory: true)
    }

    /// The logger actually used: the configured one, or the quiet default.
    var effectiveLogger: Logger {
        if let logger { return logger }
        var quiet = Logger(label: "mhz.station")
        quiet.logLevel = .warning
        return quiet
    }
}
