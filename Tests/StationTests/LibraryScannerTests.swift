import Foundation
@testable import Station
import Testing
import TestSupport
@testable import MusicLibrary

/// The scanner against real files written by ffmpeg and read by TagLib.
@Suite("Library scan")
struct LibraryScannerTests {
    @Test("reads tags of every format, path names for untagged files, skips hidden and non-audio files")
    func scansTaggedLibrary() async throws {
        let root = try await StationFixtures.sharedTaggedLibrary
        let tracks = try LibraryScanner(root: root).scan()
        #expect(tracks.map(\.relativePath) == StationFixtures.taggedFiles.map(\.path).sorted())
        for expected in StationFixtures.taggedFiles {
            let track = try #require(tracks.first { $0.relativePath == expected.path })
            #expect(track.title == expected.title, "\(expected.path)")
            #expect(track.artist == expected.artist, "\(expected.path)")
            #expect(track.album == expected.album, "\(expected.path)")
            #expect(track.genre == expected.genre, "\(expected.path)")
            #expect(track.year == expected.year, "\(expected.path)")
            #expect(abs(Double(track.durationSeconds) - expected.seconds) <= 1, "\(expected.path): \(track.durationSeconds)")
            #expect(track.fileExtension == (expected.path as NSString).pathExtension, "\(expected.path)")
            #expect(track.file == root.appendingPathComponent(expected.path))
            #expect(track.bitrate > 0, "\(expected.path)")
        }
        let mp3 = try #require(tracks.first { $0.fileExtension == "mp3" && $0.title == "Thunder Road" })
        #expect((120...136).contains(mp3.bitrate), "ffmpeg wrote 128k, TagLib read \(mp3.bitrate)")
        let wav = try #require(tracks.first { $0.fileExtension == "wav" })
        #expect(wav.bitrate == 44_100 * 2 * 16 / 1000, "stereo 44.1 kHz 16-bit PCM")
    }

    @Test("ids: 9-digit sids, 4-hex ssids, 7-digit aids, distinct, and stable across scans and locations")
    func idsAreStable() async throws {
        let root = try await StationFixtures.sharedTaggedLibrary
        let first = try LibraryScanner(root: root).scan()
        let second = try LibraryScanner(root: root).scan()
        #expect(first.map(\.sid) == second.map(\.sid))
        #expect(Set(first.map(\.sid)).count == first.count)
        for track in first {
            #expect(track.sid.count == 9 && track.sid.allSatisfy(\.isASCII) && Int(track.sid) != nil, "\(track.sid)")
            #expect(track.ssid.count == 4 && track.ssid.allSatisfy(\.isHexDigit), "\(track.ssid)")
            #expect(track.aid.count == 7 && Int(track.aid) != nil, "\(track.aid)")
        }
        // The ids depend on the path below the root, not on where the root is.
        let copy = try TemporaryDirectory(prefix: "mhz-scan-copy")
        let moved = copy.url.appendingPathComponent("elsewhere")
        try FileManager.default.copyItem(at: root, to: moved)
        let relocated = try LibraryScanner(root: moved).scan()
        #expect(relocated.map(\.sid) == first.map(\.sid))
        #expect(relocated.map(\.ssid) == first.map(\.ssid))
        #expect(relocated.map(\.aid) == first.map(\.aid))
        // Exact values: the hash is part of the wire contract (clients store sids).
        #expect(TrackIdentity.songIDs(for: ["Artist/Album/01 Song.mp3"]) == ["Artist/Album/01 Song.mp3": "597058693"])
        #expect(TrackIdentity.ssid(for: "Artist/Album/01 Song.mp3") == "edd3")
        #expect(TrackIdentity.albumID(album: "Album", folder: "Artist/Album") == "1919950")
        #expect(TrackIdentity.hash("a") == 0xaf63_dc4c_8601_ec8c, "FNV-1a 64 test vector")
    }

    @Test("colliding hashes get distinct ids: the later path in sorted order probes upwards")
    func collisionsProbe() {
        // Found by a birthday search: both paths hash to the same 9-digit slot.
        let first = "Artist/Album/067298.mp3"
        let second = "Artist/Album/121390.mp3"
        #expect(TrackIdentity.hash(first) % 900_000_000 == 284_859_697)
        #expect(TrackIdentity.hash(second) % 900_000_000 == 284_859_697)
        let ids = TrackIdentity.songIDs(for: [second, first])
        #expect(ids == [first: "384859697", second: "384859698"])
    }

    @Test("a file dated past 2262 is stamped at the end of Int64, not a crash; its neighbours keep their times")
    func fileFromTheFarFuture() throws {
        let folder = try TemporaryDirectory(prefix: "mhz-far-future")
        defer { folder.remove() }
        let late = folder.url.appendingPathComponent("late.mp3"), now = folder.url.appendingPathComponent("now.mp3")
        for file in [late, now] { try Data("not audio".utf8).write(to: file) }
        // 2300-01-01, as `touch -d 2300-01-01` sets it: 10 413 792 000 s, past Int64's nanoseconds.
        var times = [timespec(tv_sec: 10_413_792_000, tv_nsec: 0), timespec(tv_sec: 10_413_792_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, late.path, &times, 0) == 0, "\(String(cString: strerror(errno)))")
        times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 5), timespec(tv_sec: 1_700_000_000, tv_nsec: 5)]
        #expect(utimensat(AT_FDCWD, now.path, &times, 0) == 0)
        let stamps = try LibraryScanner(root: folder.url).playableFiles()
        #expect(stamps == [FileStamp(relativePath: "late.mp3", size: 9, modified: .max),
                           FileStamp(relativePath: "now.mp3", size: 9, modified: 1_700_000_000_000_000_005)])
        #expect(LibraryScanner.nanoseconds(timespec(tv_sec: -10_413_792_000, tv_nsec: 0)) == .min)
        #expect(LibraryScanner.nanoseconds(timespec(tv_sec: 9_223_372_036, tv_nsec: 999_999_999)) == .max)
    }

    @Test("a missing folder scans empty; a file where a folder should be is an error")
    func missingAndNotAFolder() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-scan")
        #expect(try LibraryScanner(root: directory.path("absent")).scan() == [])
        #expect(try LibraryScanner(root: directory.url).scan() == [])
        let file = directory.path("file.mp3")
        try Data("x".utf8).write(to: file)
        #expect(throws: LibraryError.folderUnreadable(path: file.path, reason: "not a folder")) {
            try LibraryScanner(root: file).scan()
        }
    }

    @Test("path names", arguments: [
        ("Artist/Album/01 Title.mp3", "Title", "Artist", "Album"),
        ("Artist/Album/01. Title.mp3", "Title", "Artist", "Album"),
        ("A/B/Artist/Album/3 - Title Two.flac", "Title Two", "Artist", "Album"),
        ("Album/07_Song.ogg", "Song", "", "Album"),
        ("Someone - Their Song.mp3", "Their Song", "Someone", ""),
        ("1979 Live.mp3", "1979 Live", "", ""),
        ("01.mp3", "01", "", ""),
        ("Loose/Band - Tune.wav", "Tune", "Band", "Loose"),
    ])
    func pathNames(path: String, title: String, artist: String, album: String) {
        let names = PathNames(relativePath: path)
        #expect(names.title == title)
        #expect(names.artist == artist)
        #expect(names.album == album)
    }
}

/// The file extension the scanner reads is NSString's, computed without NSString.
struct FileExtensionTests {
    @Test func sameAsNSStringPathExtension() {
        for path in ["a.mp3", "Artist/Album/01 Song.FLAC", "a.tar.gz", ".hidden", "dir/.hidden", "name.", "noext",
                     "dir.with.dots/file", "dir/", "", "a/b.c/d.e", "曲/歌.ogg", "x..y"] {
            #expect(PathNames.fileExtension(of: path) == (path as NSString).pathExtension, "\(path)")
        }
    }
}
