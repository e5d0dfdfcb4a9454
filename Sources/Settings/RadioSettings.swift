import TOMLKit

/// The `[radio]` table of `config.toml`: how the station chooses for this listener, and
/// whether mhz plays its songs at the station's level.
public struct RadioSettings: Sendable, Equatable {
    /// `variety`: 0 (only what you love) to 1 (adventurous); `nil` leaves it to the station.
    public var variety: Double?
    /// `loudness`: play each song at the gain its station's answer gives (`gain`), so songs
    /// mastered decades apart sound equally loud; on by default.
    public var loudness: Bool

    /// Settings with the variety given, by default none (the station's), levelling as
    /// `loudness` says.
    public init(variety: Double? = nil, loudness: Bool = true) {
        self.variety = variety
        self.loudness = loudness
    }

    /// Every key the table may hold.
    public static let keys = ["variety", "loudness"]

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
        if let value = table["loudness"] {
            guard let flag = value.bool else { throw .invalidValue(path: path, table: "radio", key: "loudness", expected: .bool) }
            settings.loudness = flag
        }
        return settings
    }
}
