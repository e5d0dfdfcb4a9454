import Foundation

/// Where mhz's files live (XDG Base Directory; `--data-dir` and `--config` replace them).
struct Paths: Sendable {
    /// Data and state: `mhz.sqlite`, the log, the embedded station's data and demo library.
    let dataDirectory: URL
    /// The configuration file (need not exist).
    let configFile: URL
    /// Whether `configFile` was named explicitly (then it must exist).
    let configExplicit: Bool

    /// Resolves the paths from the options, else `XDG_DATA_HOME`/`XDG_CONFIG_HOME` (absolute
    /// values only, as the spec says), else the defaults under `HOME`.
    init(options: GlobalOptions, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true)
        func xdg(_ variable: String, _ fallback: String) -> URL {
            if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value, isDirectory: true) }
            return home.appendingPathComponent(fallback, isDirectory: true)
        }
        if let dir = options.dataDir {
            dataDirectory = URL(fileURLWithPath: Paths.expand(dir, home: home), isDirectory: true)
        } else {
            dataDirectory = xdg("XDG_DATA_HOME", ".local/share").appendingPathComponent("mhz", isDirectory: true)
        }
        if let file = options.config {
            configFile = URL(fileURLWithPath: Paths.expand(file, home: home))
            configExplicit = true
        } else {
            configFile = xdg("XDG_CONFIG_HOME", ".config").appendingPathComponent("mhz/config.toml")
            configExplicit = false
        }
    }

    /// The database.
    var database: URL { dataDirectory.appendingPathComponent("mhz.sqlite") }
    /// The log file.
    var logFile: URL { dataDirectory.appendingPathComponent("mhz.log") }
    /// The embedded station's own data directory.
    var stationDirectory: URL { dataDirectory.appendingPathComponent("station", isDirectory: true) }

    /// Expands a leading `~/`.
    static func expand(_ path: String, home: URL) -> String {
        if path == "~" { return home.path }
        if path.hasPrefix("~/") { return home.appendingPathComponent(String(path.dropFirst(2))).path }
        return path
    }
}
