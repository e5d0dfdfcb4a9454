import Foundation
import TestSupport

/// ffprobe's reading of a media file: its streams' codecs and the container's duration.
enum FFprobe {
    /// What ffprobe reads.
    struct Reading: Sendable {
        /// The codec of each stream, in order.
        var codecs: [String]
        /// The container's duration in seconds.
        var seconds: Double
    }

    /// Runs ffprobe on `url` (blocking: call it off the cooperative pool).
    static func probe(_ url: URL) throws -> Reading {
        let data = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name:format=duration",
                                            "-of", "json", url.path]).stdout
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        let streams = json["streams"] as? [[String: Any]] ?? []
        let format = json["format"] as? [String: Any] ?? [:]
        return Reading(codecs: streams.compactMap { $0["codec_name"] as? String },
                       seconds: Double(format["duration"] as? String ?? "") ?? -1)
    }
}
