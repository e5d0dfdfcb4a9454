import Foundation

/// A file's loudness as FFmpeg's `ebur128` filter measures it (EBU R 128, true peak by
/// oversampling): the tests' reference, independent of the libebur128 the code uses.
public enum LoudnessProbe {
    /// What the filter's summary says.
    public struct Measurement: Sendable, Equatable {
        /// Integrated loudness, `I:` (LUFS); −70 for silence, the filter's floor.
        public var integrated: Double
        /// True peak, `Peak:` (dBFS, on the oversampled signal); −inf for digital silence.
        public var truePeak: Double
    }

    /// Measures `file` with `ffmpeg -af ebur128=peak=true` and reads the summary it prints
    /// at its end (at the info log level, on stderr).
    ///
    /// - Throws: `TestSupportError.toolFailed` when ffmpeg fails or prints no summary.
    public static func measure(_ file: URL) throws -> Measurement {
        let result = try Tool.run("ffmpeg", ["-nostdin", "-nostats", "-hide_banner", "-i", file.path,
                                             "-af", "ebur128=peak=true", "-f", "null", "-"])
        guard result.status == 0 else { throw TestSupportError.toolFailed("ffmpeg ebur128 \(file.path): \(result.errors)") }
        return try parse(summary: result.errors)
    }

    /// The `I:` and `Peak:` values of the last `Summary:` in ffmpeg's log.
    static func parse(summary log: String) throws -> Measurement {
        guard let start = log.range(of: "Summary:", options: .backwards) else {
            throw TestSupportError.toolFailed("no ebur128 summary in: \(log.suffix(500))")
        }
        var integrated: Double?, peak: Double?
        for line in log[start.upperBound...].split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count >= 2 else { continue }
            if words[0] == "I:" { integrated = Double(words[1]) }
            if words[0] == "Peak:" { peak = Double(words[1]) }
        }
        guard let integrated, let peak else {
            throw TestSupportError.toolFailed("no I: or Peak: in the ebur128 summary: \(log[start.lowerBound...])")
        }
        return Measurement(integrated: integrated, truePeak: peak)
    }
}
