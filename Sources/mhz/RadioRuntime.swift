import Foundation
import HTTP
import Logging
import RadioAPI
import Station

/// What every subcommand that talks to a station needs: paths, configuration, logging,
/// and the station itself, embedded or remote. Built once in a subcommand's `run()`.
struct RadioRuntime {
    let paths: Paths
    let config: Config
    let baseURL: URL
    let station: Station?
    let http: HTTPClient

    /// Resolves the paths and reads the configuration file, before anything starts, so a
    /// broken file is reported at once.
    static func settings(options: GlobalOptions) throws(CLIError) -> (paths: Paths, config: Config) {
        let paths = Paths(options: options)
        return (paths, try Config.load(from: paths.configFile, explicit: paths.configExplicit))
    }

    /// Checks the options, bootstraps logging to `mhz.log`, and starts the embedded station
    /// when no server is given.
    static func make(options: GlobalOptions, library: String?, logToStderr: Bool = false,
                     settings: (paths: Paths, config: Config)? = nil) async throws(CLIError) -> RadioRuntime
    {
        let paths: Paths, config: Config
        if let settings { (paths, config) = settings } else { (paths, config) = try Self.settings(options: options) }
        let api = options.api ?? config.api ?? "app"
        guard api == "app" else { throw .unsupportedAPI(api) }
        do {
            try FileManager.default.createDirectory(at: paths.dataDirectory, withIntermediateDirectories: true)
        } catch {
            throw .runtime("cannot create data directory \(paths.dataDirectory.path): \(error.localizedDescription)")
        }
        bootstrapLogging(paths: paths, toStderr: logToStderr)

        let http = HTTPClient()
        if let server = options.server ?? config.server {
            guard let url = URL(string: server), let scheme = url.scheme?.lowercased(),
                  scheme == "http" || scheme == "https", url.host != nil
            else { throw .invalidServer(server) }
            return RadioRuntime(paths: paths, config: config, baseURL: url, station: nil, http: http)
        }
        let station = try await startEmbeddedStation(paths: paths, library: library ?? config.library)
        return RadioRuntime(paths: paths, config: config, baseURL: station.url, station: station.station, http: http)
    }

    /// The endpoints of the configured server.
    var endpoints: AppEndpoints { AppEndpoints(baseURL: baseURL) }

    /// Stops the embedded station, if any.
    func shutdown() async { await station?.stop() }

    private static func startEmbeddedStation(paths: Paths, library: String?) async throws(CLIError)
        -> (station: Station, url: URL)
    {
        let home = URL(fileURLWithPath: NSHomeDirectory())
        let folder = library.map { URL(fileURLWithPath: Paths.expand($0, home: home), isDirectory: true) }
            ?? home.appendingPathComponent("Music", isDirectory: true)
        do {
            let station = try await Station(configuration: StationConfiguration(
                library: folder, dataDirectory: paths.stationDirectory))
            let url = try await station.start()
            return (station, url)
        } catch {
            throw .runtime(StationErrorText.describe(error))
        }
    }

    nonisolated(unsafe) private static var loggingBootstrapped = false

    private static func bootstrapLogging(paths: Paths, toStderr: Bool) {
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
