import Settings
import Foundation

extension Config {
    /// Reads the file (``Config/read(from:explicit:)``), its errors in the command line's
    /// words: a missing file is an empty configuration unless it was named explicitly.
    static func load(from url: URL, explicit: Bool) throws(CLIError) -> Config {
        do throws(ConfigError) {
            return try read(from: url, explicit: explicit)
        } catch {
            throw CLIError(error)
        }
    }

    /// Parses TOML text (``Config/read(_:path:)``); errors name the file, the line where
    /// known, and the key, in the command line's words.
    static func parse(_ text: String, path: String) throws(CLIError) -> Config {
        do throws(ConfigError) {
            return try read(text, path: path)
        } catch {
            throw CLIError(error)
        }
    }
}

extension Paths {
    /// The paths `--data-dir` and `--config` name, else the XDG ones.
    init(options: GlobalOptions, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(dataDir: options.dataDir, config: options.config, environment: environment)
    }
}
