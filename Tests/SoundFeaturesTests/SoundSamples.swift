import Foundation
import TestSupport

/// Sounds for the analysis tests, made with the ffmpeg command line (lavfi's `sine`,
/// `anoisesrc`, `aevalsrc`), mono at 44.1 kHz unless a format needs another rate.
enum SoundSamples {
    /// Writes `seconds` of the lavfi source `source` (a filter graph's input, e.g.
    /// `sine=frequency=220`) to `url`, in the format its extension names, through `filter`
    /// if given (e.g. `volume=0.1`).
    static func make(_ url: URL, source: String, seconds: Double, filter: String? = nil) throws {
        var arguments = ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "\(source):duration=\(seconds)"]
        if let filter { arguments += ["-af", filter] }
        let rate = url.pathExtension == "opus" ? "48000" : "44100"
        arguments += ["-ac", "1", "-ar", rate]
        switch url.pathExtension {
        case "mp3": arguments += ["-c:a", "libmp3lame", "-b:a", "128k"]
        case "ogg": arguments += ["-c:a", "libvorbis"]
        case "opus": arguments += ["-c:a", "libopus"]
        case "m4a": arguments += ["-c:a", "aac"]
        default: break
        }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try MediaFactory.run("ffmpeg", arguments + [url.path])
    }

    /// A tone of `frequency` Hz at lavfi's level (amplitude 1/8), scaled by `volume`.
    static func tone(_ url: URL, frequency: Int, seconds: Double = 4, volume: Double = 1) throws {
        try make(url, source: "sine=frequency=\(frequency)", seconds: seconds,
                 filter: volume == 1 ? nil : "volume=\(volume)")
    }

    /// White noise of amplitude 0.5.
    static func noise(_ url: URL, seconds: Double = 4) throws {
        try make(url, source: "anoisesrc=color=white:amplitude=0.5", seconds: seconds)
    }

    /// A WAVE file whose header names a codec no decoder knows (format tag 0x7777) over a
    /// second of bytes: TagLib reads its header, FFmpeg finds no decoder ("codec none"), as
    /// with a file whose header was damaged.
    static func undecodable(_ url: URL) throws {
        var format = Data()
        for (value, size) in [(0x7777, 2), (1, 2), (22_050, 4), (44_100, 4), (2, 2), (16, 2)] {
            format.append(contentsOf: (0..<size).map { UInt8((value >> (8 * $0)) & 0xFF) })
        }
        let samples = Data((0..<44_100).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
        var body = Data("WAVE".utf8)
        body += Data("fmt ".utf8) + littleEndian(UInt32(format.count)) + format
        body += Data("data".utf8) + littleEndian(UInt32(samples.count)) + samples
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (Data("RIFF".utf8) + littleEndian(UInt32(body.count)) + body).write(to: url)
    }

    private static func littleEndian(_ value: UInt32) -> Data {
        withUnsafeBytes(of: value.littleEndian) { Data($0) }
    }
}
