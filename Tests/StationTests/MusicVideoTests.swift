import Foundation
import MusicLibrary
import RadioAPI
@testable import Station
import Testing
import TestSupport

/// Music videos are songs: an MP4 (tags through TagLib), Matroska and WebM (tags through
/// FFmpeg, TagLib 1.13 has no Matroska) are scanned with their tags, served as they are
/// (a player given the file can show the picture), and as MP3 of their sound to a client
/// that asks for MP3.
@Suite("Music videos")
struct MusicVideoTests {
    /// Writes a 2-second 64×64 test picture with a tone, tagged with `title` and the
    /// artist, album, genre and date every video here shares: H.264 and AAC in mp4 and
    /// mkv, VP8 and Opus in webm.
    static func video(at url: URL, title: String) throws {
        let webm = url.pathExtension == "webm"
        try MediaFactory.run("ffmpeg", [
            "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
            "-f", "lavfi", "-i", "testsrc=size=64x64:rate=10:duration=2",
            "-f", "lavfi", "-i", "sine=frequency=523:duration=2:sample_rate=48000",
        ] + (webm ? ["-c:v", "libvpx", "-b:v", "100k", "-c:a", "libopus"]
                  : ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac"])
          + ["-metadata", "title=\(title)", "-metadata", "artist=The Projectors", "-metadata", "album=Reels",
             "-metadata", "genre=Film", "-metadata", "date=2019", url.path])
    }

    @Test("a folder holding only a tagged MP4 music video serves it as its one song: the file itself, and MP3 of its sound")
    func mp4() async throws {
        let music = try TemporaryDirectory(prefix: "mhz-video-library")
        let file = music.path("clip.mp4")
        try await offPool { try Self.video(at: file, title: "Moving Picture") }
        let scratch = try TemporaryDirectory(prefix: "mhz-video-probe")
        try await StationFixtures.withDemoStation(library: music.url) { station, base in
            #expect(!station.libraryInfo.isDemo)
            #expect(station.libraryInfo.trackCount == 1)
            let answer = try await HTTPFetch.get(base, "/j/app/radio/people?app_name=radio_android&version=100&channel=0&type=n&sid=&kbps=128")
            let song = try #require(try APIDecoder.playlist(answer.body, for: .new).songs.first)
            #expect(song.title == "Moving Picture" && song.artist == "The Projectors" && song.albumTitle == "Reels")
            #expect(song.publicTime == "2019")
            #expect(song.length == 2)

            // As it is: the video, with its type.
            let original = try await HTTPFetch.get(base, "/media/\(song.sid).mp4")
            #expect(original.status == 200)
            #expect(original.headers["content-type"] == "video/mp4")
            #expect(original.body == (try Data(contentsOf: file)))

            // As MP3: its sound only, as long as the clip.
            #expect(song.url == "\(base.absoluteString)/media/\(song.sid)-128k.mp3")
            let mp3 = try await HTTPFetch.get(URL(string: song.url)!)
            #expect(mp3.status == 200 && mp3.headers["content-type"] == "audio/mpeg")
            let output = scratch.path("clip.mp3")
            try mp3.body.write(to: output)
            let probe = try await offPool { try FFprobe.probe(output) }
            #expect(probe.codecs == ["mp3"])
            #expect(abs(probe.seconds - 2) < 0.1, "\(probe.seconds) s")
        }
    }

    @Test("Matroska and WebM videos are read through FFmpeg: their tags make the songs")
    func matroska() async throws {
        let music = try TemporaryDirectory(prefix: "mhz-video-library")
        try await offPool {
            try Self.video(at: music.path("one.mkv"), title: "Matroska Song")
            try Self.video(at: music.path("two.webm"), title: "WebM Song")
        }
        try await StationFixtures.withDemoStation(library: music.url) { station, _ in
            let tracks = station.servedLibrary.tracks.sorted { $0.title < $1.title }
            #expect(tracks.map(\.title) == ["Matroska Song", "WebM Song"])
            #expect(tracks.map(\.fileExtension) == ["mkv", "webm"])
            for track in tracks {
                #expect(track.artist == "The Projectors" && track.album == "Reels" && track.genre == "Film")
                #expect(track.year == 2019 && track.durationSeconds == 2, "\(track.relativePath)")
            }
        }
    }

    /// The lines the command line prints about a music folder without songs.
    static let looked = ".flac, .m4a, .m4v, .mkv, .mp3, .mp4, .ogg, .opus, .wav or .webm"

    @Test("mhz --library EMPTYDIR stops with one line naming the folder and what was looked for; mhz serve too")
    func namedEmptyFolder() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-empty-library")
        let empty = home.path("Nothing Here")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try Data("not music".utf8).write(to: empty.appendingPathComponent("notes.txt"))
        let line = "mhz: no songs in \(empty.path): looked for files ending in \(Self.looked); "
            + "check --library (or the library setting)\n"
        let played = try await BuiltMhz.run(["--headless", "--audio-output", "null", "--library", empty.path,
                                             "--data-dir", home.path("data").path], home: home.url)
        #expect(played.status == 1)
        #expect(played.stderr == line)
        #expect(played.stdout == "")
        let served = try await BuiltMhz.run(["serve", "--port", "0", "--library", empty.path,
                                             "--data-dir", home.path("data").path], home: home.url)
        #expect(served.status == 1)
        #expect(served.stderr == line)
        // A named folder that is not there is said so.
        let missing = try await BuiltMhz.run(["channels", "--library", home.path("absent").path,
                                              "--data-dir", home.path("data").path], home: home.url)
        #expect(missing.status == 1)
        #expect(missing.stderr == "mhz: cannot read the music folder \(home.path("absent").path) (no such folder): check --library\n")
    }

    @Test("without --library an empty ~/Music falls back to the demo library, and says so")
    func defaultFolderFallsBack() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-default-library")
        try FileManager.default.createDirectory(at: home.path("Music"), withIntermediateDirectories: true)
        // The demo library already synthesized, as the station keeps it in its data directory.
        let station = home.path("data/station")
        try FileManager.default.createDirectory(at: station, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: station.appendingPathComponent("demo-library"),
                                                   withDestinationURL: try await StationFixtures.sharedDemoLibrary)
        let listed = try await BuiltMhz.run(["channels", "--data-dir", home.path("data").path], home: home.url)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stderr == "mhz: no songs in \(home.path("Music").path) (looked for files ending in \(Self.looked)): "
            + "playing the demo library; give --library DIR for your own music\n")
        #expect(listed.stdout.hasPrefix("0"), "\(listed.stdout)")
    }
}
