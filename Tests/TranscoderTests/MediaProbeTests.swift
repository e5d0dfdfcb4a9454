import Foundation
import Testing
import TestSupport
import Transcoder

/// Music videos in containers TagLib 1.13 cannot read (Matroska, WebM), described through
/// libavformat: their tags and their sound's length; and their sound transcoded.
@Suite struct MediaProbeTests {
    static let tags = ["title": "Moving Picture", "artist": "The Projectors", "album": "Reels", "genre": "Film",
                       "date": "2019"]

    /// A 2-second 64×64 test picture with a tone, tagged, in `url`'s container: H.264 and
    /// AAC for mkv, VP8 and Opus for webm; or the picture alone.
    static func video(at url: URL, withSound: Bool = true) throws {
        var arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y",
                         "-f", "lavfi", "-i", "testsrc=size=64x64:rate=10:duration=2"]
        if withSound { arguments += ["-f", "lavfi", "-i", "sine=frequency=440:duration=2:sample_rate=48000"] }
        arguments += url.pathExtension == "webm" ? ["-c:v", "libvpx", "-b:v", "100k"] : ["-c:v", "libx264", "-pix_fmt", "yuv420p"]
        if withSound { arguments += url.pathExtension == "webm" ? ["-c:a", "libopus"] : ["-c:a", "aac"] }
        for (key, value) in tags.sorted(by: { $0.key < $1.key }) { arguments += ["-metadata", "\(key)=\(value)"] }
        _ = try MediaTools.run("ffmpeg", arguments + [url.path])
    }

    @Test("A tagged music video is described by its tags and its sound's length", arguments: ["mkv", "webm"])
    func describe(_ container: String) throws {
        let directory = try TemporaryDirectory(prefix: "mhz-transcoder")
        let file = directory.path("clip.\(container)")
        try Self.video(at: file)
        let description = try MediaProbe.describe(file)
        #expect(description.title == "Moving Picture")
        #expect(description.artist == "The Projectors")
        #expect(description.album == "Reels")
        #expect(description.genre == "Film")
        #expect(description.year == 2019)
        #expect(abs(description.durationSeconds - 2) < 0.1, "\(description.durationSeconds) s")

        // Its sound, as MP3, as long as the clip.
        let output = directory.path("clip.mp3")
        try AudioTranscoder.transcode(input: file, to: output, kbps: 128)
        let probe = try MediaTools.probe(output)
        #expect(probe.streams.map(\.codec_name) == ["mp3"])
        #expect(abs(probe.duration - 2) < 0.1, "\(probe.duration) s")
    }

    @Test("A video without sound is no song")
    func silentVideo() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-transcoder")
        let file = directory.path("silent.mkv")
        try Self.video(at: file, withSound: false)
        #expect(throws: TranscodeError.noAudioStream(path: file.path)) { try MediaProbe.describe(file) }
    }
}
