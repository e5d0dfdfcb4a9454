import Foundation

/// Generates real test media with ffmpeg (a Debian package the test set-up installs).
public enum MediaFactory {
    /// Writes `seconds` of a tone at `frequency` Hz to `url`, in the format its extension
    /// names (mp3, ogg, m4a, wav, flac, opus), with the given tags.
    /// `mp3Bitrate` sets the (constant) mp3 bit rate in kbit/s, so tests can compute byte
    /// offsets from seconds. `gainDB` scales the tone (lavfi's sine has amplitude 1/8,
    /// and `-ac 2` puts it in both channels at −3 dB: a peak of −21.1 dBFS): songs mastered
    /// at different levels.
    public static func tone(at url: URL, seconds: Double, frequency: Int = 440,
                            tags: [String: String] = [:], mp3Bitrate: Int = 128, gainDB: Double = 0) throws {
        // libopus accepts only 8/12/16/24/48 kHz.
        let rate = url.pathExtension.lowercased() == "opus" ? "48000" : "44100"
        var args = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    "sine=frequency=\(frequency):duration=\(seconds)", "-ac", "2", "-ar", rate]
        if gainDB != 0 { args += ["-af", "volume=\(gainDB)dB"] }
        switch url.pathExtension.lowercased() {
        case "mp3": args += ["-c:a", "libmp3lame", "-b:a", "\(mp3Bitrate)k"]
        case "ogg": args += ["-c:a", "libvorbis"]
        case "opus": args += ["-c:a", "libopus"]
        case "m4a": args += ["-c:a", "aac", "-movflags", "+faststart"]
        case "flac": args += ["-c:a", "flac"]
        default: break
        }
        for (k, v) in tags.sorted(by: { $0.key < $1.key }) { args += ["-metadata", "\(k)=\(v)"] }
        args.append(url.path)
        try run("ffmpeg", args)
    }

    /// Writes `seconds` of a small test picture (160×120, 10 fps, H.264) with a tone (AAC)
    /// to `url` (an mp4), for the video path.
    public static func video(at url: URL, seconds: Double) throws {
        try run("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y",
                           "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10:duration=\(seconds)",
                           "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)",
                           "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest",
                           "-movflags", "+faststart", url.path])
    }

    /// A `pixels` × `pixels` image of one colour (an ffmpeg colour name such as "red"),
    /// PNG or JPEG as `url`'s extension says: a cover whose drawing is known exactly.
    public static func solidImage(at url: URL, color: String, pixels: Int = 64) throws {
        try run("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                           "-i", "color=c=\(color):s=\(pixels)x\(pixels)", "-frames:v", "1", url.path])
    }

    /// Runs a tool from PATH, throwing with its stderr when it fails.
    public static func run(_ tool: String, _ arguments: [String]) throws {
        try Tool.succeed(tool, arguments)
    }
}
