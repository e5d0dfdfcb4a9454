import Settings
import Foundation
import HTTP
import Logging
import RadioAPI
import Station
import StationLink

/// What every subcommand that talks to a station needs: paths, configuration, logging,
/// the station itself (embedded or remote), the HTTP client and the stored session. Built
/// once in a subcommand's `run()`.
struct RadioRuntime {
    /// Where mhz's files live.
    let paths: Paths
    /// The configuration file's settings.
    let config: Config
    /// The API family of the server.
    let family: APIFamily
    /// The server's root: `--server`, or ``embeddedBase`` for the embedded station, which
    /// is answered in-process and has no address.
    let baseURL: URL
    /// Which stored session belongs to this server (see ``sessionKey(server:)``).
    let sessionKey: String
    /// The embedded station when no server was given: answered in-process, never started as
    /// a server; `shutdown()` stops its rescans and saves what it learned.
    let station: Station?

    /// The root the embedded station's requests are built against. The in-process transport
    /// reads only their paths and queries; the name shows in logs.
    static let embeddedBase = URL(string: "http://embedded-station.invalid")!
    /// The client; the web family's carries the cookie jar of `cookies.txt`.
    let http: HTTPClient

    /// The station as messages name it: its URL, or "the embedded station".
    var serverName: String { station == nil ? baseURL.absoluteString : "the embedded station" }

    /// The session kept in the data directory.
    var sessions: SessionStore { SessionStore(directory: paths.dataDirectory) }

    /// Resolves the paths and reads the configuration file, before anything starts, so a
    /// broken file is reported at once.
    static func settings(options: GlobalOptions) throws(CLIError) -> (paths: Paths, config: Config) {
        let paths = Paths(options: options)
        return (paths, try Config.load(from: paths.configFile, explicit: paths.configExplicit))
    }

    /// The server and family asked for, checked: `nil` URL for the embedded station, which
    /// speaks only the app family.
    static func server(options: GlobalOptions, config: Config) throws(CLIError) -> (url: URL?, family: APIFamily) {
        let api = options.api ?? config.api ?? APIFamily.app.rawValue
        guard let family = APIFamily(rawValue: api) else { throw .unsupportedAPI(api) }
        guard let server = options.server ?? config.server else {
            if family == .web { throw .webNeedsServer }
            return (nil, family)
        }
        guard let url = URL(string: server), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host != nil
        else { throw .invalidServer(server) }
        return (url, family)
    }

    /// The key a session is stored under: the server URL without trailing slashes, or
    /// `embedded` for the in-process station.
    static func sessionKey(server: URL?) -> String {
        guard var text = server?.absoluteString else { return "embedded" }
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// The HTTP settings the configuration asks for.
    static func httpConfiguration(_ config: Config) -> HTTPConfiguration {
        var http = HTTPConfiguration()
        http.proxy = config.proxy
        if let verify = config.verifyTLS { http.verifyTLS = verify }
        if let timeout = config.timeout { http.totalTimeout = timeout }
        if let agent = config.userAgent, !agent.isEmpty { http.userAgent = agent }
        return http
    }

    /// Checks the options, bootstraps logging to `mhz.log`, opens the cookie jar for the
    /// web family, and starts the embedded station when no server is given.
    ///
    /// The embedded station measures its songs' sound (`analysesSound`) only for a command
    /// that plays: a command that asks one thing and exits would begin work it cannot finish,
    /// and FFmpeg, which decodes the songs, writes its warnings to standard error in a
    /// process where libmpv has not taken FFmpeg's log (see `FFmpegLog`).
    static func make(options: GlobalOptions, library: String?, logToStderr: Bool = false,
                     settings: (paths: Paths, config: Config)? = nil,
                     analysesSound: Bool = false) async throws(CLIError) -> RadioRuntime
    {
        let paths: Paths, config: Config
        if let settings { (paths, config) = settings } else { (paths, config) = try Self.settings(options: options) }
        let (server, family) = try Self.server(options: options, config: config)
        do {
            try FileManager.default.createDirectory(at: paths.dataDirectory, withIntermediateDirectories: true)
        } catch {
            throw .runtime("cannot create data directory \(paths.dataDirectory.path): \(error.localizedDescription)")
        }
        bootstrapLogging(paths: paths, toStderr: logToStderr)
        let http = try makeHTTPClient(config: config, store: SessionStore(directory: paths.dataDirectory))
        let key = sessionKey(server: server)
        if let server {
            return RadioRuntime(paths: paths, config: config, family: family, baseURL: server, sessionKey: key,
                                station: nil, http: http)
        }
        let station = try await makeEmbeddedStation(paths: paths, library: library ?? config.library, live: config.live,
                                                    leveling: config.station.leveling, analysesSound: analysesSound)
        return RadioRuntime(paths: paths, config: config, family: family, baseURL: embeddedBase, sessionKey: key,
                            station: station, http: http)
    }

    /// A client whose cookies are kept in the session store's jar: the web family's
    /// login, and for either family the `bid` a station hands an anonymous client, which
    /// makes mhz a listener of its own there (its trashes learned) rather than the one
    /// shared by every client without an account.
    static func makeHTTPClient(config: Config, store: SessionStore) throws(CLIError) -> HTTPClient {
        let configuration = httpConfiguration(config)
        do {
            return HTTPClient(configuration: configuration, cookieJar: try CookieJar(storage: CookieFile(url: store.cookieFile)))
        } catch {
            throw .runtime("cannot open the cookie jar: \(SessionStore.words(error)) — check the data directory")
        }
    }

    /// The requests of this server's family, with the configured `[station] quality` and
    /// `app_name`.
    var endpoints: StationEndpoints {
        switch family {
        case .app:
            var app = AppEndpoints(baseURL: baseURL)
            if let name = config.appName { app.appName = name }
            config.station.quality.apply(to: &app)
            return .app(app)
        case .web:
            var web = WebEndpoints(baseURL: baseURL)
            config.station.quality.apply(to: &web)
            return .web(web)
        }
    }

    /// The radio service for this server, speaking for the stored session when it belongs
    /// here (see ``ActiveSession``).
    func stationClient(logger: Logger = Logger(label: "mhz.net")) -> StationClient {
        StationClient(transport: transport(logger: logger), endpoints: endpoints, session: activeSession(logger: logger),
                      variety: VarietyKnob(config.radio.variety))
    }

    /// What carries requests to this station: the embedded one in-process, a server over HTTP.
    func transport(logger: Logger) -> any APITransport {
        if let station { return EmbeddedTransport(station: station, logger: logger) }
        return StationTransport(http: http, logger: logger)
    }

    /// The login to start with: the stored session if it was made on this server with this
    /// family and is still usable, else anonymous.
    func activeSession(logger: Logger) -> ActiveSession {
        let store = sessions
        var login = Login.anonymous
        var expired = false
        do throws(SessionFailure) {
            if let stored = try store.load(), stored.server == sessionKey, stored.api == family {
                switch (stored.api, stored.app, stored.web) {
                case (.app, let credentials?, _):
                    login = .app(credentials)
                case (.web, _, let user?) where http.cookieJar?.cookie(named: WebLogin.sessionCookie) != nil:
                    login = .web(user)
                default:
                    // The session cookie has expired (or the file lost it): say so once.
                    expired = true
                    try store.remove()
                }
            }
        } catch {
            logger.warning("\(error.description); continuing anonymously")
        }
        return ActiveSession(login: login, expiredAtStart: expired, store: store, jar: http.cookieJar, logger: logger)
    }

    /// Stops the embedded station, if any.
    func shutdown() async { await station?.stop() }

    /// The embedded station over `library` (default ~/Music, else the demo library): its
    /// library loaded and its rescans running, but no server. `mhz` needs none: it asks the
    /// station in-process and plays its files directly, which saves the server's threads,
    /// memory and start-up, and a network hop for every song.
    ///
    /// A folder the user named (`--library`, the config's `library`) must hold songs; only
    /// the default one falls back to the demo library, and a line on stderr says so.
    /// `[live]` (`live`) is how it broadcasts once `mhz --live` serves it on loopback, as
    /// `mhz serve` would: the channels kept on the air, the look-back kept. `[station]`'s
    /// loudness (`leveling`) is how it levels its songs.
    private static func makeEmbeddedStation(paths: Paths, library: String?, live: LiveSettings, leveling: Leveling,
                                            analysesSound: Bool) async throws(CLIError) -> Station {
        // `HOME` first, as Paths reads it: Foundation's NSHomeDirectory() ignores it for root.
        let home = URL(fileURLWithPath: ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory())
        let folder = URL(fileURLWithPath: Paths.expand(library ?? Config.defaultLibrary, home: home), isDirectory: true)
        do {
            var configuration = StationConfiguration(
                library: folder, fallsBackToDemo: library == nil, dataDirectory: paths.stationDirectory)
            configuration.analysesSound = analysesSound
            configuration.afterSoundAnalysis = HeapTrim.release
            configuration.live = live.stationConfiguration
            configuration.leveling = leveling
            let station = try await Station(configuration: configuration)
            if let empty = station.libraryInfo.passedOver {
                let line = LibraryText.fellBack(from: empty, extensions: Station.songExtensions, serving: false)
                FileHandle.standardError.write(Data(line.utf8))
                Logger(label: "mhz").notice("\(line.dropFirst("mhz: ".count).dropLast())")
            }
            station.beginRescans()
            return station
        } catch {
            throw .runtime(StationErrorText.describe(error))
        }
    }

    nonisolated(unsafe) private static var loggingBootstrapped = false

    /// Sends logs to `mhz.log` (or stderr) at `MHZ_LOG_LEVEL` (default info), once per process.
    static func bootstrapLogging(paths: Paths, toStderr: Bool) {
        // LoggingSystem.bootstrap may be called once per process.
        guard !loggingBootstrapped else { return }
        loggingBootstrapped = true
        let level: Logger.Level = ProcessInfo.processInfo.environment["MHZ_LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .info
        if toStderr {
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
        } else {
            let sink = FileLogHandler.Sink(url: paths.logFile)
            LoggingSystem.bootstrap { label in
                var handler = FileLogHandler(label: label, sink: sink)
                handler.logLevel = level
                return handler
            }
        }
    }
}
