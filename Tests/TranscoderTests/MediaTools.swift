import Foundation
import TestSupport

/// The ffmpeg and ffprobe command lines: real inputs made, real outputs read back.
enum MediaTools {
    /// Writes `seconds` of a 440 Hz tone to `url` in the format its extension names, with
    /// `channels` channels at `rate` Hz and the given tags.
    static func tone(at url: URL, seconds: Double, channels: Int = 2, rate: Int = 44100,
                     tags: [String: String] = [:]) throws {
        var arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                         "-i", "sine=frequency=440:duration=\(seconds):sample_rate=\(rate)", "-ac", "\(channels)"]
        switch url.pathExtension {
        case "ogg": arguments += ["-c:a", "libvorbis"]
        case "opus": arguments += ["-c:a", "libopus"]
        case "m4a": arguments += ["-c:a", "aac"]
        case "mp3": arguments += ["-c:a", "libmp3lame", "-b:a", "128k"]
        case "flac": arguments += ["-c:a", "flac"]
        default: break
        }
        for (key, value) in tags.sorted(by: { $0.key < $1.key }) { arguments += ["-metadata", "\(key)=\(value)"] }
        arguments.append(url.path)
        _ = try run("ffmpeg", arguments)
    }

    /// Writes a one-frame PNG picture: a file FFmpeg opens, with no audio in it.
    static func picture(at url: URL) throws {
        _ = try run("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                               "-i", "color=c=red:s=16x16", "-frames:v", "1", url.path])
    }

    /// What ffprobe says of a file's first stream and its container.
    static func probe(_ url: URL) throws -> Probe {
        let output = try run("ffprobe", ["-v", "error", "-show_entries",
                                         "stream=codec_name,bit_rate,sample_rate,channels:format=duration:format_tags=title,artist,album,date",
                                         "-of", "json", url.path])
        return try JSONDecoder().decode(Probe.self, from: output)
    }

    /// Runs a tool from PATH to its end and returns its standard output; throws with its
    /// standard error when it fails.
    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        try Tool.succeed(tool, arguments)
    }
}

/// ffprobe's JSON (`-of json`), the entries asked for.
struct Probe: Decodable {
    struct Stream: Decodable {
        let codec_name: String
        let sample_rate: String
        let channels: Int
        let bit_rate: String?
    }
    struct Format: Decodable {
        let duration: String
        let tags: [String: String]?
    }
    let streams: [Stream]
    let format: Format

    /// The container's duration in seconds.
    var duration: Double { Double(format.duration) ?? -1 }
}
