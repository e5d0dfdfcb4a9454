import Foundation
import TOMLKit

/// The `[hooks]` table of `config.toml`.
public struct HookSettings: Sendable, Equatable {
    /// The executable run on every event (`event`, `~/` expanded); nil: no hook.
    public var event: String?
    /// How long one run may take before its process group is ended (`timeout`, seconds).
    public var timeout: Double = 10

    /// Settings with the values given: no hook, 10 seconds, unless given.
    public init(event: String? = nil, timeout: Double = 10) {
        self.event = event
        self.timeout = timeout
    }

    /// Every key the table may hold.
    public static let keys = ["event", "timeout"]

    /// Reads the table; errors name the key and what it must be.
    public static func parse(_ table: TOMLTable, path: String) throws(ConfigError) -> HookSettings {
        var settings = HookSettings()
        for key in table.keys where !keys.contains(key) {
            throw Config.unknown(key, in: "hooks", of: table, path: path, known: keys)
        }
        if let value = table["event"] {
            guard let command = value.string, !command.isEmpty else {
                throw .invalidValue(path: path, table: "hooks", key: "event", expected: .program)
            }
            let home = URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true)
            settings.event = Paths.expand(command, home: home)
        }
        if let value = table["timeout"] {
            guard let seconds = value.double ?? value.int.map(Double.init), seconds > 0, seconds <= 3600 else {
                throw .invalidValue(path: path, table: "hooks", key: "timeout", expected: .seconds(0...3600))
            }
            settings.timeout = seconds
        }
        return settings
    }
}
