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

/// How the station mhz serves levels its songs (`[station] loudness`).
public enum StationLoudness: String, Sendable, Equatable, CaseIterable {
    /// Each song brought to the target.
    case track
    /// Each album brought to the target, its songs as loud as each other as mastered.
    case album
    /// Songs as they are.
    case off
}

/// The `[station]` table of `config.toml`: what mhz asks of the station it plays from, and
/// how the station it serves itself (`mhz serve`, or the embedded one) levels its songs.
public struct StationSettings: Sendable, Equatable {
    /// `quality`: the file itself (the default) or an MP3 at 64, 128 or 192 kbit/s.
    public var quality = Self.defaultQuality
    /// `loudness`: whose loudness the served station levels songs by (each track's, by default).
    public var loudness = StationLoudness.track
    /// `loudness_target`: the loudness (LUFS) it levels them to.
    public var loudnessTarget = Self.defaultLoudnessTarget
    /// `metrics`: whether `mhz serve` answers `/status` and `/metrics` to clients beyond
    /// loopback (off: only the machine's own may ask).
    public var metrics = false

    /// Settings asking for `quality`, by default the original file, and levelling as `loudness`
    /// says to `loudnessTarget`.
    public init(quality: StationQuality = Self.defaultQuality, loudness: StationLoudness = .track,
                loudnessTarget: Double = Self.defaultLoudnessTarget) {
        self.quality = quality
        self.loudness = loudness
        self.loudnessTarget = loudnessTarget
    }

    /// −18 LUFS, ReplayGain 2.0's reference level.
    public static let defaultLoudnessTarget = -18.0
    /// The targets accepted: quieter than −30 LUFS is lost under a room's noise, louder than
    /// −5 cannot be reached without a limiter (songs are never raised past −1 dBTP).
    public static let loudnessTargets: ClosedRange<Double> = -30 ... -5

    /// The quality asked when the table does not say.
    public static let defaultQuality = StationQuality.original
    /// The MP3 bit rates a station serves (Douban's, and mhz's station's transcodes).
    public static let bitrates = [64, 128, 192]
    /// Every key the table may hold.
    public static let keys = ["quality", "loudness", "loudness_target", "metrics"]

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
        if let value = table["loudness"] {
            guard let loudness = value.string.flatMap(StationLoudness.init(rawValue:)) else {
                throw .invalidValue(path: path, table: "station", key: "loudness",
                                    expected: .oneOf(StationLoudness.allCases.map(\.rawValue)))
            }
            settings.loudness = loudness
        }
        if let value = table["loudness_target"] {
            guard let target = value.double ?? value.int.map(Double.init), loudnessTargets.contains(target) else {
                throw .invalidValue(path: path, table: "station", key: "loudness_target", expected: .number(loudnessTargets))
            }
            settings.loudnessTarget = target
        }
        if let value = table["metrics"] {
            guard let flag = value.bool else { throw .invalidValue(path: path, table: "station", key: "metrics", expected: .bool) }
            settings.metrics = flag
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
