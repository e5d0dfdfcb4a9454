import TOMLKit

/// The `[live]` table of `config.toml`: how `mhz serve` broadcasts its channels live.
public struct LiveSettings: Sendable, Equatable {
    /// `always`: the channels kept on the air from the start, never stopped for want of
    /// listeners (their look-back is always there). Others start at their first listener.
    public var always: [String]
    /// `lookback`: how long segments are kept, in seconds (`"2h"`, `"90m"`, `"45s"`).
    public var lookbackSeconds: Int
    /// `crossfade`: how long the end of one song and the start of the next are heard
    /// together on the air, in seconds (`"3s"`); 0 for hard cuts.
    public var crossfadeSeconds: Int

    /// Settings keeping `always` on the air and `lookbackSeconds` of segments, songs
    /// overlapping by `crossfadeSeconds`.
    public init(always: [String] = [], lookbackSeconds: Int = Self.defaultLookbackSeconds,
                crossfadeSeconds: Int = Self.defaultCrossfadeSeconds) {
        self.always = always
        self.lookbackSeconds = lookbackSeconds
        self.crossfadeSeconds = crossfadeSeconds
    }

    /// Three seconds, as a radio's segue.
    public static let defaultCrossfadeSeconds = 3
    /// The longest crossfade: ten seconds (past it, a song's end is a second song).
    public static let longestCrossfadeSeconds = 10

    /// Two hours.
    public static let defaultLookbackSeconds = 2 * 3600
    /// The longest look-back: a week.
    public static let longestLookbackSeconds = 7 * 86_400
    /// Every key the table may hold.
    public static let keys = ["always", "lookback", "crossfade"]

    /// Reads the table; errors name the key and what it accepts.
    public static func parse(_ table: TOMLTable, path: String) throws(ConfigError) -> LiveSettings {
        var settings = LiveSettings()
        for key in table.keys where !keys.contains(key) {
            throw Config.unknown(key, in: "live", of: table, path: path, known: keys)
        }
        if let value = table["always"] {
            guard let array = value.array else {
                throw .invalidValue(path: path, table: "live", key: "always", expected: .channelIDs)
            }
            var ids: [String] = []
            for element in array {
                guard let id = element.int.map(String.init) ?? element.string, !id.isEmpty else {
                    throw .invalidValue(path: path, table: "live", key: "always", expected: .channelIDs)
                }
                ids.append(id)
            }
            settings.always = ids
        }
        if let value = table["lookback"] {
            guard let seconds = value.string.flatMap(Self.seconds), (1...longestLookbackSeconds).contains(seconds) else {
                throw .invalidValue(path: path, table: "live", key: "lookback",
                                    expected: .timeSpan(maximumSeconds: longestLookbackSeconds))
            }
            settings.lookbackSeconds = seconds
        }
        if let value = table["crossfade"] {
            guard let seconds = value.string.flatMap(Self.seconds), (0...longestCrossfadeSeconds).contains(seconds) else {
                throw .invalidValue(path: path, table: "live", key: "crossfade",
                                    expected: .timeSpan(maximumSeconds: longestCrossfadeSeconds))
            }
            settings.crossfadeSeconds = seconds
        }
        return settings
    }

    /// `"2h"`, `"90m"`, `"45s"`, `"1h30m"` in seconds; `nil` for anything else.
    public static func seconds(_ text: String) -> Int? {
        var total = 0
        var digits = ""
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
                continue
            }
            let unit: Int
            switch character {
            case "h": unit = 3600
            case "m": unit = 60
            case "s": unit = 1
            default: return nil
            }
            guard let count = Int(digits), digits.count <= 9 else { return nil }
            total += count * unit
            digits = ""
        }
        return digits.isEmpty && !text.isEmpty ? total : nil
    }
}
