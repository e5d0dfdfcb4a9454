import Foundation
import RadioAPI
@testable import Station
import Testing
import TestSupport

/// A transcode answered while it is made as the finished file is answered: its exact
/// length from the first byte, a range as a 206 with exactly the bytes the finished file
/// holds there (a seek or a resumed position lands where it asked), past the end a 416,
/// and a range the encoder has not reached waited for, boundedly.
@Suite("Transcode ranges")
struct TranscodeRangeTests {
    /// Seconds of the long song: long enough that its transcode takes a while.
    static let longSeconds = 240

    /// A long FLAC song and two short ones of odd lengths (Ogg at 44.1 kHz, mono WAV at
    /// 22.05 kHz), made once per test process.
    static var library: URL {
        get async throws { try await libraryTask.value }
    }

    private static let libraryTask = Task {
        try await offPool { () throws -> URL in
            let root = StationFixtures.sharedDataDirectory.appendingPathComponent("transcode-range-library", isDirectory: true)
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let songs: [(name: String, input: String, codec: [String])] = [
                ("01 Long.flac", "sine=frequency=330:duration=\(longSeconds):sample_rate=44100", ["-ac", "2", "-c:a", "flac"]),
                ("02 Short.ogg", "sine=frequency=440:duration=7.3:sample_rate=44100", ["-ac", "2", "-c:a", "libvorbis"]),
                ("03 Low.wav", "sine=frequency=550:duration=5.55:sample_rate=22050", ["-ac", "1"]),
            ]
            for song in songs {
                try MediaFactory.run("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y",
                                                "-f", "lavfi", "-i", song.input] + song.codec
                                        + ["-metadata", "title=\(song.name.dropFirst(3).split(separator: ".")[0])",
                                           root.appendingPathComponent(song.name).path])
            }
            return root
        }
    }

    private static func songs(_ base: URL, kbps: Int) async throws -> [String: Song] {
        let answer = try await HTTPFetch.get(base, "/j/app/radio/people?app_name=radio_android&version=100&channel=0&type=n&sid=&kbps=\(kbps)")
        let list = try APIDecoder.playlist(answer.body, for: .new).songs
        return Dictionary(uniqueKeysWithValues: list.map { ($0.title, $0) })
    }

    /// The finished file of a transcode, once its job has renamed it into place.
    private static func finished(_ station: Station, _ name: String) async throws -> Data {
        let file = station.configuration.dataDirectory.appendingPathComponent("transcoded/\(name)")
        try await waitUntil("\(name) to be finished", within: .seconds(60)) {
            FileManager.default.fileExists(atPath: file.path)
        }
        return try Data(contentsOf: file)
    }

    /// GETs `range` of `url`, asking again while the answer is 503 (the encoder not there
    /// yet: a busy machine encodes slower than the wait allowed).
    private static func getWaiting(_ url: URL, range: String) async throws -> Fetched {
        try await waitForValue("\(range) of \(url.lastPathComponent) answered other than 503", within: .seconds(60),
                               every: .milliseconds(50)) {
            let answer = try await HTTPFetch.get(url, headers: ["Range": range])
            return answer.status == 503 ? nil : answer
        }
    }

    @Test("the first request of a song, with Range: bytes=100000-, is a 206 with exactly the finished file's bytes from there")
    func firstRequestWithRange() async throws {
        let music = try await Self.library
        try await StationFixtures.withDemoStation(library: music) { station, base in
            let long = try #require(try await Self.songs(base, kbps: 128)["Long"])
            let name = "\(long.sid)-128k.mp3"
            #expect(!FileManager.default.fileExists(atPath: station.configuration.dataDirectory.appendingPathComponent("transcoded/\(name)").path))

            let first = try await HTTPFetch.get(URL(string: long.url)!, headers: ["Range": "bytes=100000-"])
            #expect(first.status == 206)
            #expect(first.headers["accept-ranges"] == "bytes")
            let contentRange = try #require(first.headers["content-range"])
            let length = try #require(Int(contentRange.split(separator: "/").last ?? ""))
            #expect(contentRange == "bytes 100000-\(length - 1)/\(length)")
            #expect(first.headers["content-length"] == "\(length - 100_000)")
            // As long as the song at 128 kbit/s, plus the tag.
            #expect(length > Self.longSeconds * 16_000 && length < Self.longSeconds * 16_000 + 16_384)

            let file = try await Self.finished(station, name)
            #expect(file.count == length)
            #expect(first.body == file[100_000...])

            // The finished file agrees: whole, and the same range again.
            let whole = try await HTTPFetch.get(URL(string: long.url)!)
            #expect(whole.status == 200 && whole.headers["content-length"] == "\(length)" && whole.body == file)
            let again = try await HTTPFetch.get(URL(string: long.url)!, headers: ["Range": "bytes=100000-"])
            #expect(again.status == 206 && again.headers["content-range"] == contentRange && again.body == first.body)
        }
    }

    @Test("every first answer announces the finished file's exact size (HEAD too), at 64, 128 and 192 kbit/s; past the end is 416")
    func exactLengths() async throws {
        let music = try await Self.library
        try await StationFixtures.withDemoStation(library: music) { station, base in
            for kbps in [64, 128, 192] {
                for (title, song) in try await Self.songs(base, kbps: kbps) where title != "Long" {
                    let url = try #require(URL(string: song.url))
                    let head = try await HTTPFetch.get(url, method: "HEAD")
                    #expect(head.status == 200 && head.headers["accept-ranges"] == "bytes", "\(title) at \(kbps)")
                    let announced = try #require(head.headers["content-length"].flatMap { Int($0) })
                    let whole = try await HTTPFetch.get(url)
                    #expect(whole.headers["content-length"] == "\(announced)", "\(title) at \(kbps)")
                    #expect(whole.body.count == announced, "\(title) at \(kbps)")
                    let file = try await Self.finished(station, "\(song.sid)-\(kbps)k.mp3")
                    #expect(file == whole.body, "\(title) at \(kbps)")
                    let past = try await HTTPFetch.get(url, headers: ["Range": "bytes=\(announced)-"])
                    #expect(past.status == 416 && past.headers["content-range"] == "bytes */\(announced)")
                }
            }
            // Past the end on the very first request of a song, while it is made.
            let long = try #require(try await Self.songs(base, kbps: 192)["Long"])
            let refused = try await HTTPFetch.get(URL(string: long.url)!, headers: ["Range": "bytes=999999999-"])
            #expect(refused.status == 416)
            let length = try #require(refused.headers["content-range"].flatMap { Int($0.dropFirst("bytes */".count)) })
            let tail = try await Self.getWaiting(URL(string: long.url)!, range: "bytes=-1000")
            #expect(tail.status == 206 && tail.headers["content-range"] == "bytes \(length - 1000)-\(length - 1)/\(length)")
            #expect(tail.body == (try await Self.finished(station, "\(long.sid)-192k.mp3")).suffix(1000))
        }
    }

    @Test("Range headers read against a known length: open, closed, suffix, past the end; malformed ones ignored")
    func byteRanges() {
        let length = 1000
        #expect(ByteRange(header: nil, length: length) == .whole)
        #expect(ByteRange(header: "bytes=100-", length: length) == .part(100...999))
        #expect(ByteRange(header: "bytes=100-199", length: length) == .part(100...199))
        #expect(ByteRange(header: "bytes=900-5000", length: length) == .part(900...999))
        #expect(ByteRange(header: "bytes=-10", length: length) == .part(990...999))
        #expect(ByteRange(header: "bytes=-5000", length: length) == .part(0...999))
        #expect(ByteRange(header: "bytes=0-0,5-9", length: length) == .part(0...0))
        #expect(ByteRange(header: "bytes=1000-", length: length) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=-0", length: length) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=0-", length: 0) == .unsatisfiable)
        for malformed in ["items=0-1", "bytes=", "bytes=5-2", "bytes=a-b", "bytes=-x", "bytes=--1", "bytes=1"] {
            #expect(ByteRange(header: malformed, length: length) == .whole, "\(malformed)")
        }
    }

    @Test("a range the encoder has not reached in the time allowed is a 503 with Retry-After; asked again, a 206")
    func rangeAheadOfTheEncoder() async throws {
        let music = try await Self.library
        try await StationFixtures.withDemoStation(library: music, adjust: { $0.transcodeRangeWait = .zero }) { station, base in
            let long = try #require(try await Self.songs(base, kbps: 64)["Long"])
            let url = try #require(URL(string: long.url))
            // 1.5 MB in at 64 kbit/s is three minutes of the song: no encoder is there the
            // instant the job starts.
            let busy = try await HTTPFetch.get(url, headers: ["Range": "bytes=1500000-"])
            #expect(busy.status == 503)
            #expect(busy.headers["retry-after"] == "1")
            #expect(busy.text == #"{"err":"transcoding","r":1}"#)
            let answer = try await Self.getWaiting(url, range: "bytes=1500000-")
            #expect(answer.status == 206)
            let file = try await Self.finished(station, "\(long.sid)-64k.mp3")
            #expect(answer.headers["content-range"] == "bytes 1500000-\(file.count - 1)/\(file.count)")
            #expect(answer.body == file[1_500_000...])
        }
    }
}
