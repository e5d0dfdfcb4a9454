import Foundation
import TOMLKit

/// The `[hooks]` table of `config.toml`.
struct HookSettings: Sendable, Equatable {
    /// The executable run on every event (`event`, `~/` expanded); nil: no hook.
    var event: String?
    /// How long one run may take before its process group is ended (`timeout`, seconds).
    var timeout: Double = 10

    /// Every key the table may hold.
    static let keys = ["event", "timeout"]

    /// Reads the table; errors name the key and what it must be.
    static func parse(_ table: TOMLTable, path: String) throws(CLIError) -> HookSettings {
        var settings = HookSettings()
        for key in table.keys where !keys.contains(key) {
            throw .configInvalid(path, line: nil, "unknown key \"\(key)\" in [hooks] (known: \(keys.joined(separator: ", ")))")
        }
        if let value = table["event"] {
            guard let command = value.string, !command.isEmpty else {
                throw .configInvalid(path, line: nil, "[hooks] event must be the path of a program, e.g. \"~/bin/mhz-event\"")
            }
            let home = URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true)
            settings.event = Paths.expand(command, home: home)
        }
        if let value = table["timeout"] {
            guard let seconds = value.double ?? value.int.map(Double.init), seconds > 0, seconds <= 3600 else {
                throw .configInvalid(path, line: nil, "[hooks] timeout must be a number of seconds from 0 to 3600")
            }
            settings.timeout = seconds
        }
        return settings
    }
}
