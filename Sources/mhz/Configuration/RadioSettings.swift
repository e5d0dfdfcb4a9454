import TOMLKit

/// The `[radio]` table of `config.toml`: how the station chooses for this listener.
struct RadioSettings: Sendable, Equatable {
    /// `variety`: 0 (only what you love) to 1 (adventurous); `nil` leaves it to the station.
    var variety: Double?

    /// Every key the table may hold.
    static let keys = ["variety"]

    /// Reads the table; errors name the key and what it accepts.
    static func parse(_ table: TOMLTable, path: String) throws(CLIError) -> RadioSettings {
        var settings = RadioSettings()
        for key in table.keys where !keys.contains(key) {
            throw .configInvalid(path, line: nil, "unknown key \"\(key)\" in [radio] (known: \(keys.joined(separator: ", ")))")
        }
        if let value = table["variety"] {
            guard let variety = value.double ?? value.int.map(Double.init), (0...1).contains(variety) else {
                throw .configInvalid(path, line: nil, "\"variety\" in [radio] must be a number from 0 to 1")
            }
            settings.variety = variety
        }
        return settings
    }
}
