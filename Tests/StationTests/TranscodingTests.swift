import Foundation
import RadioAPI
@testable import Station
import Synchronization
import Testing
import TestSupport

/// Songs served as MP3 at the `kbps` a request asks, transcoded on demand from an Ogg and
/// FLAC library and cached: what ffprobe reads from the bytes served, streaming before the
/// transcode is finished, Range on the cached file, and the original on request.
@Suite("Transcoding")
struct TranscodingTests {
    /// A library of one Ogg Vorbis and one FLAC song (8 s, 44.1 kHz stereo) and one long
    /// FLAC song (``longSeconds``), made with ffmpeg.
    /// Seconds of the long song: encoding it takes some seconds, so its first bytes reach
    /// the client while it is still being encoded even when the tests beside it hold the
    /// cores (150 s was encoded in about a second, sometimes before a busy client read).
    static let longSeconds = 480

    /// The library, made once per test process off the cooperative pool and shared by the
    /// tests (each station has a data directory, and so a transcode cache, of its own).
    static var library: URL {
        get async throws { try await libraryTask.value }
    }

    private static let libraryTask = Task {
        try await offPool { () throws -> URL in
            let root = StationFixtures.sharedDataDirectory.appendingPathComponent("transcode-library", isDirectory: true)
            try makeLibrary(in: root)
            return root
        }
    }

    private static func makeLibrary(in root: URL) throws {
        let album = root.appendingPathComponent("Tones/Sines", isDirectory: true)
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        let songs: [(name: String, seconds: Int, codec: [String])] = [
            ("01 Vorbis.ogg", 8, ["-c:a", "libvorbis"]), ("02 Flac.flac", 8, ["-c:a", "flac"]),
            ("03 Long.flac", longSeconds, ["-c:a", "flac"]),
        ]
        for (index, song) in songs.enumerated() {
            try MediaFactory.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi",
                                            "-i", "sine=frequency=\(330 + index * 110):duration=\(song.seconds)",
                                            "-ar", "44100", "-ac", "2"] + song.codec
                                    + ["-metadata", "title=\(song.name.dropFirst(3).split(separator: ".")[0])",
                                       "-metadata", "artist=Oscillators", "-metadata", "genre=Test",
                                       album.appendingPathComponent(song.name).path])
        }
    }

    private func songs(_ base: URL, _ query: String) async throws -> [Song] {
        // Channel 0 draws 5 of 3 songs: all three, in some order.
        let answer = try await HTTPFetch.get(base, "/j/app/radio/people?app_name=radio_android&version=100&channel=0&type=n&sid=" + query)
        return try APIDecoder.playlist(answer.body, for: .new).songs
    }

    /// ffprobe's reading of an MP3: codec, bit rate, duration.
    private static func probe(_ bytes: Data, in folder: TemporaryDirectory, name: String) throws -> (codec: String, bitRate: Int, seconds: Double) {
        let file = folder.url.appendingPathComponent(name)
        try bytes.write(to: file)
        let output = folder.url.appendingPathComponent(name + ".json")
        try MediaFactory.run("sh", ["-c", "ffprobe -v error -show_entries stream=codec_name,bit_rate:format=duration -of json '\(file.path)' > '\(output.path)'"])
        // Thrown rather than #require: this runs on a thread of its own, outside the test's task.
        guard let json = try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any],
              let stream = (json["streams"] as? [[String: Any]])?.first, let format = json["format"] as? [String: Any]
        else { throw TestSupportError.toolFailed("ffprobe read no stream and format from \(name)") }
        return (stream["codec_name"] as? String ?? "", Int(stream["bit_rate"] as? String ?? "") ?? 0,
                Double(format["duration"] as? String ?? "") ?? 0)
    }

    @Test("kbps 64, 128 and 192: MP3 at that bit rate (ffprobe), the song's kbps says so; format=original is the file")
    func bitrates() async throws {
        let library = try await Self.library
        let scratch = try TemporaryDirectory(prefix: "mhz-transcode-probe")
        try await StationFixtures.withDemoStation(library: library) { station, base in
            for kbps in [64, 128, 192] {
                let list = try await songs(base, "&kbps=\(kbps)")
                #expect(list.count == 3)
                for song in list where song.title != "Long" {
                    #expect(song.url == "\(base.absoluteString)/media/\(song.sid)-\(kbps)k.mp3")
                    #expect(song.kbps == kbps)
                    let served = try await HTTPFetch.get(URL(string: song.url)!)
                    #expect(served.status == 200 && served.headers["content-type"] == "audio/mpeg")
                    let name = "\(song.sid)-\(kbps).mp3"
                    let read = try await offPool { try Self.probe(served.body, in: scratch, name: name) }
                    #expect(read.codec == "mp3", "\(song.title) at \(kbps)")
                    #expect(read.bitRate == kbps * 1000, "\(song.title) at \(kbps)")
                    #expect(abs(read.seconds - 8) < 0.1, "\(song.title) at \(kbps): \(read.seconds) s")
                }
            }
            let originals = try await songs(base, "&kbps=128&format=original")
            for song in originals {
                let track = try #require(station.servedLibrary.track(sid: song.sid))
                #expect(song.url == "\(base.absoluteString)/media/\(track.mediaFileName)")
                let served = try await HTTPFetch.get(URL(string: song.url)!)
                #expect(served.body == (try Data(contentsOf: track.file)))
            }
        }
    }

    @Test("a song not yet cached streams before its transcode is finished; two listeners get the same bytes; the cached file serves Range")
    func streamingAndCache() async throws {
        let library = try await Self.library
        try await StationFixtures.withDemoStation(library: library) { station, base in
            let port = try #require(base.port)
            let long = try #require(try await songs(base, "&kbps=128").first { $0.title == "Long" })
            let name = "\(long.sid)-128k.mp3"
            let cached = station.configuration.dataDirectory.appendingPathComponent("transcoded/\(name)")
            #expect(!FileManager.default.fileExists(atPath: cached.path))
            // When the first bytes arrive, the long song is still being encoded: the
            // finished file is not there yet (the encoder streams, it does not finish first).
            let finishedAtFirstBytes = Mutex<Bool?>(nil)
            let first = try await RawHTTP.firstBodyBytes(port: port, target: "/media/\(name)") {
                finishedAtFirstBytes.withLock { $0 = FileManager.default.fileExists(atPath: cached.path) }
            }
            #expect(finishedAtFirstBytes.withLock { $0 } == false)
            #expect(String(decoding: first.prefix(12), as: UTF8.self).hasPrefix("HTTP/1.1 200"))

            // Two listeners while it is (or was just) being made: the same bytes.
            async let one = HTTPFetch.get(URL(string: long.url)!)
            async let two = HTTPFetch.get(URL(string: long.url)!)
            let (a, b) = try await (one, two)
            #expect(a.status == 200 && a.body == b.body && a.body.starts(with: Array("ID3".utf8)))
            // As long as the song at 128 kbit/s, plus the tag.
            #expect(a.body.count > Self.longSeconds * 16_000 && a.body.count < Self.longSeconds * 16_000 + 16_384)

            // Finished: the cache holds it, and it is served as a file, with Range.
            try await waitUntil("the finished transcode in the cache", within: .seconds(60)) {
                FileManager.default.fileExists(atPath: cached.path)
            }
            #expect(try Data(contentsOf: cached) == a.body)
            let range = try await HTTPFetch.get(URL(string: long.url)!, headers: ["Range": "bytes=100-199"])
            #expect(range.status == 206)
            #expect(range.headers["content-range"] == "bytes 100-199/\(a.body.count)")
            #expect(range.body == a.body[100..<200])
        }
    }
}
