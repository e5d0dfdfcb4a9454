import TOMLKit

/// What mhz asks a station to link for each song: the file itself, or an MP3 at a bit rate.
enum StationQuality: Sendable, Equatable {
    /// `format=original`: mhz's station links the file as it is (a FLAC stays FLAC);
    /// servers that do not know the parameter answer as they always do.
    case original
    /// `kbps=`: an MP3 at this many kbit/s (one of ``StationSettings/bitrates``).
    case kbps(Int)

    /// The word or number as `config.toml` writes it.
    var text: String {
        switch self {
        case .original: "original"
        case .kbps(let kbps): String(kbps)
        }
    }
}

/// The `[station]` table of `config.toml`: what mhz asks of the station it plays from.
struct StationSettings: Sendable, Equatable {
    /// `quality`: the file itself (the default) or an MP3 at 64, 128 or 192 kbit/s.
    var quality = Self.defaultQuality

    /// The quality asked when the table does not say.
    static let defaultQuality = StationQuality.original
    /// The MP3 bit rates a station serves (Douban's, and mhz's station's transcodes).
    static let bitrates = [64, 128, 192]
    /// Every key the table may hold.
    static let keys = ["quality"]

    /// What `quality` accepts, for messages and the manual.
    static var acceptedQualities: String {
        (["original"] + bitrates.map(String.init)).joined(separator: ", ")
    }

    /// Reads the table; errors name the key and what it accepts.
    static func parse(_ table: TOMLTable, path: String) throws(CLIError) -> StationSettings {
        var settings = StationSettings()
        for key in table.keys where !keys.contains(key) {
            throw .configInvalid(path, line: nil, "unknown key \"\(key)\" in [station] (known: \(keys.joined(separator: ", ")))")
        }
        if let value = table["quality"] {
            guard let quality = quality(value.int.map(String.init) ?? value.string) else {
                throw .configInvalid(path, line: nil, "\"quality\" in [station] must be one of \(acceptedQualities)")
            }
            settings.quality = quality
        }
        return settings
    }

    /// `original`, or one of the ``bitrates`` (as a number or its digits).
    static func quality(_ text: String?) -> StationQuality? {
        guard let text else { return nil }
        if text == "original" { return .original }
        guard let kbps = Int(text), bitrates.contains(kbps) else { return nil }
        return .kbps(kbps)
    }
}
