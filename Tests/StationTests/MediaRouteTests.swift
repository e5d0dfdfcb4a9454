import Foundation
import RadioAPI
import Station
import Testing
import MusicLibrary

/// `/media/<sid>.<ext>`: bytes, types, ranges, and nothing else.
@Suite("Media route")
struct MediaRouteTests {
    @Test("a full GET returns the file's bytes with its type and Accept-Ranges")
    func fullFile() async throws {
        try await StationFixtures.withDemoStation { station, base in
            let song = try #require(try await firstSong(base))
            let file = try #require(try LibraryScanner(root: station.libraryInfo.path).scan().first { $0.sid == song.sid })
            let bytes = try Data(contentsOf: file.file)
            let answer = try await HTTPFetch.get(URL(string: song.url)!)
            #expect(answer.status == 200)
            #expect(answer.body == bytes)
            #expect(answer.headers["content-type"] == "audio/mpeg")
            #expect(answer.headers["accept-ranges"] == "bytes")
            #expect(answer.headers["content-length"] == String(bytes.count))
        }
    }

    @Test("Range: bytes=100-199 answers 206 with exactly those 100 bytes")
    func range() async throws {
        try await StationFixtures.withDemoStation { station, base in
            let song = try #require(try await firstSong(base))
            let file = try #require(try LibraryScanner(root: station.libraryInfo.path).scan().first { $0.sid == song.sid })
            let bytes = try Data(contentsOf: file.file)
            let answer = try await HTTPFetch.get(URL(string: song.url)!, headers: ["Range": "bytes=100-199"])
            #expect(answer.status == 206)
            #expect(answer.headers["content-range"] == "bytes 100-199/\(bytes.count)")
            #expect(answer.headers["content-length"] == "100")
            #expect(answer.body == bytes[100..<200])

            let tail = try await HTTPFetch.get(URL(string: song.url)!, headers: ["Range": "bytes=\(bytes.count - 10)-"])
            #expect(tail.status == 206)
            #expect(tail.body == bytes.suffix(10))
        }
    }

    @Test("every format is served with its Content-Type")
    func contentTypes() async throws {
        let music = try await StationFixtures.sharedTaggedLibrary
        try await StationFixtures.withDemoStation(library: music) { station, base in
            #expect(!station.libraryInfo.isDemo)
            let types = ["mp3": "audio/mpeg", "ogg": "audio/ogg", "opus": "audio/opus", "flac": "audio/flac",
                         "m4a": "audio/mp4", "wav": "audio/wav"]
            let tracks = try LibraryScanner(root: music).scan()
            #expect(Set(tracks.map(\.fileExtension)) == Set(types.keys))
            for track in tracks {
                let answer = try await HTTPFetch.get(base, "/media/\(track.sid).\(track.fileExtension)")
                #expect(answer.status == 200, "\(track.relativePath)")
                #expect(answer.headers["content-type"] == types[track.fileExtension], "\(track.relativePath)")
                #expect(answer.body == (try Data(contentsOf: track.file)), "\(track.relativePath)")
            }
        }
    }

    @Test("unknown ids, wrong extensions and other names are 404 with a JSON body")
    func notFound() async throws {
        try await StationFixtures.withDemoStation { _, base in
            let song = try #require(try await firstSong(base))
            for path in ["/media/100000000.mp3", "/media/\(song.sid).wav", "/media/\(song.sid)", "/media/abc.mp3",
                         "/media/", "/media", "/media/\(song.sid).mp3/x", "/nothing-here", "/j/app/radio/unknown",
                         "/media/100000000-128k.mp3", "/media/\(song.sid)-100k.mp3", "/media/\(song.sid)-128k.ogg"] {
                let answer = try await HTTPFetch.get(base, path)
                #expect(answer.status == 404, "\(path)")
                #expect(answer.text == #"{"err":"not_found","r":1}"#, "\(path)")
                #expect(answer.headers["content-type"] == "application/json; charset=utf-8", "\(path)")
            }
        }
    }

    @Test("traversal attempts, plain or percent-encoded, are 404 with a JSON body, as any unknown name")
    func traversal() async throws {
        try await StationFixtures.withDemoStation { _, base in
            let port = try #require(base.port)
            let song = try #require(try await firstSong(base))
            let name = try #require(URL(string: song.url)?.lastPathComponent)
            for target in ["/media/../../etc/passwd", "/media/%2e%2e/%2e%2e/etc/passwd", "/media/..%2f..%2fetc%2fpasswd",
                           "/media/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd", "/../etc/passwd", "/media/x/../\(name)",
                           "/media/%2e%2e/media/\(name)", "/media/%2e./\(name)", "/cover/../../etc/passwd", "/media/%C0%AE%C0%AE/x"] {
                for method in ["GET", "HEAD"] {
                    let answer = try await RawHTTP.get(port: port, target: target, method: method)
                    #expect(answer.status == 404, "\(method) \(target)")
                    #expect(answer.headers["content-type"] == "application/json; charset=utf-8", "\(method) \(target)")
                    if method == "GET" { #expect(answer.text == #"{"err":"not_found","r":1}"#, "\(target)") }
                }
            }
            // The name itself, reached without a detour, is served.
            #expect(try await RawHTTP.get(port: port, target: "/media/\(name)").status == 200)
        }
    }

    private func firstSong(_ base: URL) async throws -> Song? {
        let answer = try await HTTPFetch.get(base, "/j/app/radio/people?app_name=radio_android&version=100&channel=0&type=n&sid=")
        return try APIDecoder.playlist(answer.body, for: .new).songs.first
    }
}
