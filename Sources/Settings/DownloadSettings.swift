import Foundation
import HLSPlaylist
import TOMLKit

/// The `[downloads]` table of `config.toml`.
public struct DownloadSettings: Sendable, Equatable {
    /// `dir`: where downloaded songs go (`~/` expanded); default `downloads` in the data
    /// directory (`$XDG_DATA_HOME/mhz/downloads`).
    public var directory: String?
    /// `max_concurrent`: songs fetched at once (1–16, ``defaultMaxConcurrent`` when absent).
    public var maxConcurrent: Int?
    /// `liked`: download every song the moment it is liked.
    public var liked = false
    /// `quality`: kbit/s, `best` or `worst`: what is asked of the station for its songs
    /// (``stationQuality(_:)``, in place of `[station] quality`) and the HLS variant chosen
    /// (the lowest at or above it, else the highest).
    public var quality: VariantQuality?
    /// `stall_timeout`: seconds without a byte after which a transfer is retried
    /// (``defaultStallTimeout`` when absent).
    public var stallTimeout: Double?
    /// `segment_concurrency`: HLS segments fetched at once per download (1–16,
    /// ``defaultSegmentConcurrency`` when absent).
    public var segmentConcurrency: Int?

    /// Settings with the values given; every one absent (the defaults) unless given.
    public init(directory: String? = nil, maxConcurrent: Int? = nil, liked: Bool = false, quality: VariantQuality? = nil,
                stallTimeout: Double? = nil, segmentConcurrency: Int? = nil) {
        self.directory = directory
        self.maxConcurrent = maxConcurrent
        self.liked = liked
        self.quality = quality
        self.stallTimeout = stallTimeout
        self.segmentConcurrency = segmentConcurrency
    }

    /// Songs fetched at once when `max_concurrent` is absent.
    public static let defaultMaxConcurrent = 3
    /// Seconds without a byte before a transfer is retried, when `stall_timeout` is absent.
    public static let defaultStallTimeout = 30.0
    /// HLS segments fetched at once per download when `segment_concurrency` is absent.
    public static let defaultSegmentConcurrency = 4
    /// The quality when neither `--quality` nor `quality` says.
    public static let defaultQuality = VariantQuality.best

    /// The keys the table may hold.
    public static let keys = ["dir", "max_concurrent", "liked", "quality", "stall_timeout", "segment_concurrency"]

    /// Reads the table; errors name the key.
    public static func parse(_ table: TOMLTable, path: String) throws(ConfigError) -> DownloadSettings {
        var settings = DownloadSettings()
        for key in table.keys where !keys.contains(key) {
            throw Config.unknown(key, in: "downloads", of: table, path: path, known: keys)
        }
        if let value = table["dir"] {
            guard let dir = value.string, !dir.isEmpty else {
                throw .invalidValue(path: path, table: "downloads", key: "dir", expected: .folderPath)
            }
            settings.directory = dir
        }
        if let value = table["max_concurrent"] {
            guard let n = value.int, (1...16).contains(n) else {
                throw .invalidValue(path: path, table: "downloads", key: "max_concurrent", expected: .wholeNumber(1...16))
            }
            settings.maxConcurrent = n
        }
        if let value = table["liked"] {
            guard let flag = value.bool else { throw .invalidValue(path: path, table: "downloads", key: "liked", expected: .bool) }
            settings.liked = flag
        }
        if let value = table["quality"] {
            guard let quality = value.int.map({ VariantQuality("\($0)") }) ?? value.string.map({ VariantQuality($0) }),
                  let quality
            else {
                throw .invalidValue(path: path, table: "downloads", key: "quality", expected: .variantQuality)
            }
            settings.quality = quality
        }
        if let value = table["segment_concurrency"] {
            guard let n = value.int, (1...16).contains(n) else {
                throw .invalidValue(path: path, table: "downloads", key: "segment_concurrency", expected: .wholeNumber(1...16))
            }
            settings.segmentConcurrency = n
        }
        if let value = table["stall_timeout"] {
            guard let seconds = value.double ?? value.int.map(Double.init), seconds >= 1, seconds <= 600 else {
                throw .invalidValue(path: path, table: "downloads", key: "stall_timeout", expected: .seconds(1...600))
            }
            settings.stallTimeout = seconds
        }
        return settings
    }

    /// What to ask a station for, for `quality`: its nearest MP3 bit rate at or above it
    /// (64, 128, 192), else the original file, which is also `best`; 64 for `worst`.
    public static func stationQuality(_ quality: VariantQuality) -> StationQuality {
        switch quality {
        case .best: return .original
        case .worst: return .kbps(StationSettings.bitrates[0])
        case .kbps(let kbps): return StationSettings.bitrates.first { $0 >= kbps }.map(StationQuality.kbps) ?? .original
        }
    }

    /// The folder songs go to.
    public func folder(paths: Paths, home: URL = URL(fileURLWithPath: NSHomeDirectory())) -> URL {
        guard let directory else { return paths.dataDirectory.appendingPathComponent("downloads", isDirectory: true) }
        return URL(fileURLWithPath: Paths.expand(directory, home: home), isDirectory: true)
    }
}
