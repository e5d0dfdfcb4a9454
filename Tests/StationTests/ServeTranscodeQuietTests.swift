import Foundation
import RadioAPI
import Testing
import TestSupport

/// `mhz serve` transcoding songs of odd lengths at every kind of rate writes nothing but its
/// own line to stderr: not libmp3lame's "Trying to remove 1152 samples, but the queue is
/// empty" at each song's end, nor anything else of FFmpeg's, even with FFmpeg's warnings
/// routed into the station's log and that log at `notice` (where they would show).
@Suite("mhz serve transcodes quietly")
struct ServeTranscodeQuietTests {
    @Test("several odd-length songs transcoded at 64 and 128 kbit/s: stderr holds the serving line and nothing else")
    func quiet() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-serve-quiet")
        let music = home.path("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        // Lengths (in samples) where LAME's flush makes one frame more than carries the song
        // ((samples + 576) mod 1152 in 577…623 at 44.1 and 48 kHz, (samples + 576) mod 576 in
        // 1…47 at 22.05 kHz): the frame whose taking made libmp3lame log at the song's end.
        let songs: [(name: String, rate: Int, channels: Int, samples: Int, codec: [String])] = [
            ("one.flac", 44100, 2, 46_104, ["-c:a", "flac"]),
            ("two.ogg", 48000, 2, 55_320, ["-c:a", "libvorbis"]),
            ("three.wav", 22050, 1, 11_530, []),
            ("four.flac", 44100, 1, 34_590, ["-c:a", "flac"]),
        ]
        try await offPool {
            for song in songs {
                try MediaFactory.run("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                                                "-i", "sine=frequency=440:sample_rate=\(song.rate)",
                                                "-af", "atrim=end_sample=\(song.samples)", "-ac", "\(song.channels)"]
                                        + song.codec
                                        + ["-metadata", "title=\(song.name)", music.appendingPathComponent(song.name).path])
            }
        }
        let server = try BuiltMhz(["serve", "--data-dir", home.path("data").path, "--port", "0", "--library", music.path],
                                  home: home.url, environment: ["MHZ_LOG_LEVEL": "notice"])
        defer { server.kill() }
        let base = try await server.servedURL()
        for kbps in [64, 128] {
            let answer = try await HTTPFetch.get(base, "/j/app/radio/people?app_name=radio_android&version=100&channel=0&type=n&sid=&kbps=\(kbps)")
            let list = try APIDecoder.playlist(answer.body, for: .new).songs
            #expect(Set(list.map(\.title)) == Set(songs.map(\.name)))
            for song in list {
                // Each body read to its end: the encoder has been flushed by then. A song the
                // analysis measured after the list was answered is redirected to its name at
                // its level (LoudnessServeTests), which is followed as a player does.
                var mp3 = try await HTTPFetch.get(URL(string: song.url)!)
                if mp3.status == 302, let location = mp3.headers["location"] {
                    mp3 = try await HTTPFetch.get(base, location)
                }
                #expect(mp3.status == 200 && mp3.headers["content-length"] == "\(mp3.body.count)", "\(song.title) at \(kbps)")
            }
        }
        server.terminate()
        #expect(try await server.exit() == 0)
        #expect(server.stderr == "mhz: serving 4 songs from \(music.path) on \(base.absoluteString)\n")
    }
}
