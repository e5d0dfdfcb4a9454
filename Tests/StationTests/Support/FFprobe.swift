import Foundation

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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffprobe", "-v", "error", "-show_entries", "stream=codec_name:format=duration",
                             "-of", "json", url.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Its JSON is a few hundred bytes: reading to the end cannot stall it.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        let streams = json["streams"] as? [[String: Any]] ?? []
        let format = json["format"] as? [String: Any] ?? [:]
        return Reading(codecs: streams.compactMap { $0["codec_name"] as? String },
                       seconds: Double(format["duration"] as? String ?? "") ?? -1)
    }
}
