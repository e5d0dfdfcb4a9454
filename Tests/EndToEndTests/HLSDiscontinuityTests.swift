import Foundation
import TestSupport
import Testing

/// `mhz download` of HLS streams whose periods do not continue one another, made here with
/// the ffmpeg command line and served on 127.0.0.1: AAC at 44.1 kHz, then (after an
/// `EXT-X-DISCONTINUITY`, as an ad break or a stitched stream has it) MP3 at 22.05 kHz; and
/// two AAC runs whose timestamps each start again. The segments appended as they came decode
/// for half their length (with errors, or with a duration that stops at the first run);
/// what mhz keeps decodes end to end, nothing dropped, its first period byte for byte.
@Suite(.serialized)
struct HLSDiscontinuityTests {
    let folder: TemporaryDirectory
    let home: TemporaryDirectory
    let server: FaultyMediaServer

    /// Seconds of each run: two segments of at most 4 s (7.9 s, not 8, leaves no third
    /// sliver of a segment behind AAC's priming).
    static let seconds = 7.9

    init() async throws {
        folder = try TemporaryDirectory(prefix: "mhz-hls-discontinuity")
        home = try TemporaryDirectory(prefix: "mhz-hls-discontinuity-home")
        let root = folder.url
        try await offPool {
            try Self.encode(root, "aac", rate: 44100, frequency: 440, codec: ["-c:a", "aac", "-b:a", "128k"])
            try Self.encode(root, "mp3", rate: 22050, frequency: 660, codec: ["-c:a", "libmp3lame", "-b:a", "64k"])
            try Self.encode(root, "aac-again", rate: 44100, frequency: 550, codec: ["-c:a", "aac", "-b:a", "128k"])
        }
        server = try FaultyMediaServer(root: root)
    }

    /// One run of segments, `NAME/seg%03d.ts` and `NAME/index.m3u8`, by ffmpeg's HLS muxer
    /// (whose timestamps start at 1.4 s in every run).
    static func encode(_ root: URL, _ name: String, rate: Int, frequency: Int, codec: [String]) throws {
        try FileManager.default.createDirectory(at: root.appendingPathComponent(name), withIntermediateDirectories: true)
        try MediaFactory.run("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                                        "sine=frequency=\(frequency):sample_rate=\(rate):duration=\(seconds)", "-ac", "2"]
                                 + codec + ["-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod",
                                            "-hls_segment_filename", root.path + "/\(name)/seg%03d.ts",
                                            root.path + "/\(name)/index.m3u8"])
    }

    /// The `EXTINF` lines and segment names of a run's playlist.
    func run(_ name: String) throws -> [(duration: Double, file: String)] {
        let lines = try String(contentsOf: folder.path("\(name)/index.m3u8"), encoding: .utf8).split(separator: "\n")
        return zip(lines, lines.dropFirst()).compactMap { info, uri in
            guard info.hasPrefix("#EXTINF:"), let seconds = Double(info.dropFirst(8).split(separator: ",")[0]) else { return nil }
            return (seconds, "\(name)/\(uri)")
        }
    }

    /// Writes `NAME/index.m3u8` joining `first` and `second` with a discontinuity, and
    /// beside it each run's segments and both runs' as they came (`first.ts`, `second.ts`,
    /// `as-they-came.ts`); returns the summed EXTINF durations and the first run's bytes.
    func joinedPlaylist(_ name: String, _ first: String, _ second: String) throws -> (seconds: Double, firstPeriod: Data) {
        let a = try run(first), b = try run(second)
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for segment in a { text += "#EXTINF:\(segment.duration),\n../\(segment.file)\n" }
        text += "#EXT-X-DISCONTINUITY\n"
        for segment in b { text += "#EXTINF:\(segment.duration),\n../\(segment.file)\n" }
        try FileManager.default.createDirectory(at: folder.path(name), withIntermediateDirectories: true)
        try Data((text + "#EXT-X-ENDLIST\n").utf8).write(to: folder.path("\(name)/index.m3u8"))
        let firstPeriod = try a.reduce(into: Data()) { $0.append(try Data(contentsOf: folder.path($1.file))) }
        let secondPeriod = try b.reduce(into: Data()) { $0.append(try Data(contentsOf: folder.path($1.file))) }
        try firstPeriod.write(to: folder.path("\(name)/first.ts"))
        try secondPeriod.write(to: folder.path("\(name)/second.ts"))
        try (firstPeriod + secondPeriod).write(to: folder.path("\(name)/as-they-came.ts"))
        return ((a + b).map(\.duration).reduce(0, +), firstPeriod)
    }

    /// Downloads `name/index.m3u8` with the built mhz and returns the file.
    func download(_ name: String) async throws -> URL {
        let mhz = try BuiltMhz(["download", server.url("\(name)/index.m3u8"), "--data-dir", home.path("data").path],
                                 environment: ["HOME": home.url.path, "XDG_CONFIG_HOME": home.path("config").path])
        mhz.closeInput()
        #expect(try await mhz.exit(timeout: 60) == 0, "\(mhz.stderr)")
        return home.path("data/downloads/\(name).ts")
    }

    /// What ffmpeg says decoding `file` (`-v error`: nothing when it decodes cleanly), the
    /// seconds of samples it decodes (counted from the samples, mono 16-bit at 44.1 kHz),
    /// the duration ffprobe reads from its timestamps, and its streams (`codec,rate,channels`
    /// each, and how many).
    func decode(_ file: URL) async throws -> (errors: String, decoded: Double, probed: Double, streams: String) {
        let pcm = folder.path("decoded-\(UUID().uuidString).raw")
        defer { try? FileManager.default.removeItem(at: pcm) }
        return try await offPool {
            let errors = try Self.output("ffmpeg", ["-nostdin", "-v", "error", "-i", file.path, "-ac", "1", "-ar", "44100",
                                                    "-f", "s16le", "-y", pcm.path])
            let samples = (try FileManager.default.attributesOfItem(atPath: pcm.path)[.size] as? Int ?? 0) / 2
            let probed = try Self.output("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file.path])
            let streams = try Self.output("ffprobe", ["-v", "error", "-show_entries",
                                                      "format=nb_streams:stream=codec_name,sample_rate,channels",
                                                      "-of", "compact=p=0:nk=1", file.path])
            // A stream is listed under its program too: each once.
            var seen: [String] = []
            for line in streams.split(separator: "\n").map(String.init) where !seen.contains(line) { seen.append(line) }
            return (errors, Double(samples) / 44100,
                    Double(probed.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, seen.joined(separator: " "))
        }
    }

    /// A tool's standard output and error together.
    static func output(_ tool: String, _ arguments: [String]) throws -> String {
        try Tool.run("/usr/bin/" + tool, arguments, mergingErrors: true).text
    }

    /// What the decoded length may differ from the summed EXTINF durations by: two AAC
    /// frames at 44.1 kHz, and the encoder delay a decoder plays of each run.
    static let slack = 2 * 1024.0 / 44100 + 0.05
    /// One AAC frame at 44.1 kHz: a re-encoded period starts with one of the encoder's
    /// priming, and its last is filled up with silence.
    static let frame = 1024.0 / 44100

    @Test func aCodecChangeAfterADiscontinuityBecomesOneStreamThatDecodesEndToEnd() async throws {
        let (seconds, firstPeriod) = try joinedPlaylist("change", "aac", "mp3")
        // The segments as they came: the AAC decoder meets MP3 half way.
        let raw = try await decode(folder.path("change/as-they-came.ts"))
        #expect(!raw.errors.isEmpty && raw.decoded < seconds - 2, "the fixture does not show the problem: \(raw)")

        let parts = try await decode(folder.path("change/first.ts")).decoded + decode(folder.path("change/second.ts")).decoded

        let file = try await download("change")
        let result = try await decode(file)
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(abs(result.decoded - seconds) <= Self.slack, "decoded \(result.decoded) s of \(seconds)")
        // Nothing dropped: every sample of both runs, and at most the re-encoding's two frames more.
        #expect(result.decoded >= parts && result.decoded <= parts + 2 * Self.frame, "decoded \(result.decoded) s of \(parts)")
        #expect(abs(result.probed - seconds) <= Self.slack, "ffprobe reads \(result.probed) s of \(seconds)")
        #expect(result.streams == "aac|44100|2 1", "one AAC stream at the first period's rate: \(result.streams)")
        let bytes = try Data(contentsOf: file)
        #expect(bytes.prefix(firstPeriod.count) == firstPeriod, "the first period is kept byte for byte")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path("data/downloads").path) == ["change.ts"])
    }

    @Test func timestampsThatStartAgainBecomeOneTimelineAndTheFirstPeriodIsKept() async throws {
        let (seconds, firstPeriod) = try joinedPlaylist("restart", "aac", "aac-again")
        // The segments as they came decode, but their timestamps say the stream is half as long.
        let raw = try await decode(folder.path("restart/as-they-came.ts"))
        #expect(raw.probed < seconds - 2, "the fixture does not show the problem: \(raw)")

        let parts = try await decode(folder.path("restart/first.ts")).decoded + decode(folder.path("restart/second.ts")).decoded

        let file = try await download("restart")
        let result = try await decode(file)
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(abs(result.decoded - seconds) <= Self.slack, "decoded \(result.decoded) s of \(seconds)")
        // Copied packet for packet: exactly the samples of both runs.
        #expect(abs(result.decoded - parts) < 0.001, "decoded \(result.decoded) s of \(parts)")
        #expect(abs(result.probed - seconds) <= Self.slack, "ffprobe reads \(result.probed) s of \(seconds)")
        #expect(result.streams == "aac|44100|2 1", "\(result.streams)")
        let bytes = try Data(contentsOf: file)
        #expect(bytes.prefix(firstPeriod.count) == firstPeriod, "the first period is kept byte for byte")
    }

    @Test func periodsThatContinueOneAnotherAreKeptByteForByte() async throws {
        // One run cut in two by a discontinuity tag: its timestamps and codec go on.
        let segments = try run("aac")
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for (n, segment) in segments.enumerated() {
            if n == 1 { text += "#EXT-X-DISCONTINUITY\n" }
            text += "#EXTINF:\(segment.duration),\n../\(segment.file)\n"
        }
        try FileManager.default.createDirectory(at: folder.path("tagged"), withIntermediateDirectories: true)
        try Data((text + "#EXT-X-ENDLIST\n").utf8).write(to: folder.path("tagged/index.m3u8"))
        let file = try await download("tagged")
        let served = try segments.reduce(into: Data()) { $0.append(try Data(contentsOf: folder.path($1.file))) }
        #expect(try Data(contentsOf: file) == served)
    }
}
