import Foundation

/// Where mhz's files live (XDG Base Directory; `--data-dir` and `--config` replace them).
public struct Paths: Sendable {
    /// Data and state: `mhz.sqlite`, the log, the embedded station's data and demo library.
    public let dataDirectory: URL
    /// The configuration file (need not exist).
    public let configFile: URL
    /// Whether `configFile` was named explicitly (then it must exist).
    public let configExplicit: Bool
    /// The control socket of the mhz playing from this data directory (see
    /// ``controlSocket(dataDirectory:isDefault:environment:)``).
    public let controlSocket: URL

    /// Resolves the paths from `dataDir` and `config` (`--data-dir`, `--config`), else
    /// `XDG_DATA_HOME`/`XDG_CONFIG_HOME` (absolute values only, as the spec says), else the
    /// defaults under `HOME`.
    public init(dataDir: String?, config: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true)
        func xdg(_ variable: String, _ fallback: String) -> URL {
            if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value, isDirectory: true) }
            return home.appendingPathComponent(fallback, isDirectory: true)
        }
        if let dir = dataDir {
            dataDirectory = URL(fileURLWithPath: Paths.expand(dir, home: home), isDirectory: true)
        } else {
            dataDirectory = xdg("XDG_DATA_HOME", ".local/share").appendingPathComponent("mhz", isDirectory: true)
        }
        if let file = config {
            configFile = URL(fileURLWithPath: Paths.expand(file, home: home))
            configExplicit = true
        } else {
            configFile = xdg("XDG_CONFIG_HOME", ".config").appendingPathComponent("mhz/config.toml")
            configExplicit = false
        }
        controlSocket = Self.controlSocket(dataDirectory: dataDirectory, isDefault: dataDir == nil,
                                           environment: environment)
    }

    /// Where the control socket of an mhz playing from `dataDirectory` listens, so `mhz ctl`
    /// with the same options finds it: `$XDG_RUNTIME_DIR/mhz/mhz.sock` for the default data
    /// directory, `mhz-<hash of the directory>.sock` beside it for any other (one socket per
    /// data directory). Without an absolute `XDG_RUNTIME_DIR` (a server, cron), or when that
    /// path would not fit a socket address (107 bytes), the socket is `mhz.sock` in the data
    /// directory itself, else `/tmp/mhz-<uid>/<hash>.sock`.
    public static func controlSocket(dataDirectory: URL, isDefault: Bool, environment: [String: String]) -> URL {
        let hash = fnv1a(dataDirectory.standardizedFileURL.path)
        let name = isDefault ? "mhz.sock" : "mhz-\(hash).sock"
        var candidates: [URL] = []
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            candidates.append(URL(fileURLWithPath: runtime, isDirectory: true).appendingPathComponent("mhz/\(name)"))
        }
        candidates.append(dataDirectory.appendingPathComponent("mhz.sock"))
        let fits = candidates.first { $0.path.utf8.count <= maxSocketPathBytes }
        return fits ?? URL(fileURLWithPath: "/tmp/mhz-\(getuid())/\(hash).sock")
    }

    /// `sun_path` holds 108 bytes with the terminating NUL (unix(7)).
    public static let maxSocketPathBytes = 107

    /// A short, stable name for a path (FNV-1a, 64 bits, in hex): the same directory gives
    /// the same socket name in every run.
    private static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The database.
    public var database: URL { dataDirectory.appendingPathComponent("mhz.sqlite") }
    /// The log file.
    public var logFile: URL { dataDirectory.appendingPathComponent("mhz.log") }
    /// Song covers fetched from a station, for the desktop and the terminal UI.
    public var coverDirectory: URL { dataDirectory.appendingPathComponent("covers", isDirectory: true) }
    /// The embedded station's own data directory.
    public var stationDirectory: URL { dataDirectory.appendingPathComponent("station", isDirectory: true) }

    /// Expands a leading `~/`.
    public static func expand(_ path: String, home: URL) -> String {
        if path == "~" { return home.path }
        if path.hasPrefix("~/") { return home.appendingPathComponent(String(path.dropFirst(2))).path }
        return path
    }
}
