import TOMLKit

/// The `[radio]` table of `config.toml`: how the station chooses for this listener.
public struct RadioSettings: Sendable, Equatable {
    /// `variety`: 0 (only what you love) to 1 (adventurous); `nil` leaves it to the station.
    public var variety: Double?

    /// Settings with the variety given, by default none (the station's).
    public init(variety: Double? = nil) {
        self.variety = variety
    }

    /// Every key the table may hold.
    public static let keys = ["variety"]

    /// Reads the table; errors name the key and what it accepts.
    public static func parse(_ table: TOMLTable, path: String) throws(ConfigError) -> RadioSettings {
        var settings = RadioSettings()
        for key in table.keys where !keys.contains(key) {
            throw Config.unknown(key, in: "radio", of: table, path: path, known: keys)
        }
        if let value = table["variety"] {
            guard let variety = value.double ?? value.int.map(Double.init), (0...1).contains(variety) else {
                throw .invalidValue(path: path, table: "radio", key: "variety", expected: .number(0...1))
            }
            settings.variety = variety
        }
        return settings
    }
}
