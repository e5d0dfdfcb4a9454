import TOMLKit

/// What mhz asks a station to link for each song: the file itself, or an MP3 at a bit rate.
public enum StationQuality: Sendable, Equatable {
    /// `format=original`: mhz's station links the file as it is (a FLAC stays FLAC);
    /// servers that do not know the parameter answer as they always do.
    case original
    /// `kbps=`: an MP3 at this many kbit/s (one of ``StationSettings/bitrates``).
    case kbps(Int)

    /// The word or number as `config.toml` writes it.
    public var text: String {
        switch self {
        case .original: "original"
        case .kbps(let kbps): String(kbps)
        }
    }
}

/// The `[station]` table of `config.toml`: what mhz asks of the station it plays from.
public struct StationSettings: Sendable, Equatable {
    /// `quality`: the file itself (the default) or an MP3 at 64, 128 or 192 kbit/s.
    public var quality = Self.defaultQuality

    /// Settings asking for `quality`, by default the original file.
    public init(quality: StationQuality = Self.defaultQuality) {
        self.quality = quality
    }

    /// The quality asked when the table does not say.
    public static let defaultQuality = StationQuality.original
    /// The MP3 bit rates a station serves (Douban's, and mhz's station's transcodes).
    public static let bitrates = [64, 128, 192]
    /// Every key the table may hold.
    public static let keys = ["quality"]

    /// What `quality` accepts, for messages and the manual.
    public static var acceptedQualities: String { acceptedQualityWords.joined(separator: ", ") }

    /// What `quality` accepts, one word or number each.
    public static var acceptedQualityWords: [String] { ["original"] + bitrates.map(String.init) }

    /// Reads the table; errors name the key and what it accepts.
    public static func parse(_ table: TOMLTable, path: String) throws(ConfigError) -> StationSettings {
        var settings = StationSettings()
        for key in table.keys where !keys.contains(key) {
            throw Config.unknown(key, in: "station", of: table, path: path, known: keys)
        }
        if let value = table["quality"] {
            guard let quality = quality(value.int.map(String.init) ?? value.string) else {
                throw .invalidValue(path: path, table: "station", key: "quality", expected: .oneOf(acceptedQualityWords))
            }
            settings.quality = quality
        }
        return settings
    }

    /// `original`, or one of the ``bitrates`` (as a number or its digits).
    public static func quality(_ text: String?) -> StationQuality? {
        guard let text else { return nil }
        if text == "original" { return .original }
        guard let kbps = Int(text), bitrates.contains(kbps) else { return nil }
        return .kbps(kbps)
    }
}
