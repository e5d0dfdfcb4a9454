import Foundation
import HTTP
import Radio
import TestSupport
import Testing
@testable import Companions
@testable import mhz

/// Covers as local files: a station's fetched once into the cache directory, only when it
/// is an image; the embedded station's files used as they are.
struct CoverCacheTests {
    private func track(_ picture: String) -> Track {
        Track(sid: "7", title: "T", artist: "A", url: "http://x/7.mp3", picture: picture)
    }

    @Test func aStationsCoverIsFetchedOnceAndKeptAsAFile() async throws {
        let served = try TemporaryDirectory(prefix: "mhz-covers-served")
        let png = served.path("cover.png")
        try MediaFactory.solidImage(at: png, color: "blue")
        try Data("<html><body>Sorry</body></html>\n".utf8).write(to: served.path("page.jpg"))
        let server = try await StaticFileServer(root: served.url)
        defer { server.stop() }
        let cacheDirectory = try TemporaryDirectory(prefix: "mhz-covers")
        let cache = CoverCache(directory: cacheDirectory.url, http: HTTPClient())

        let picture = server.url("cover.png").absoluteString
        let file = try #require(await cache.file(for: track(picture)))
        #expect(file.deletingLastPathComponent().standardizedFileURL == cacheDirectory.url.standardizedFileURL)
        #expect(file.lastPathComponent == CoverCache.name(for: picture))
        #expect(file.pathExtension == "png")
        #expect(try Data(contentsOf: file) == (try Data(contentsOf: png)))
        #expect(await cache.file(for: track(picture)) == file)
        #expect(server.recorder.requests(to: "/cover.png").count == 1, "kept, not fetched again")

        // An HTML page answered with 200, a 404, nothing at all: no cover, nothing kept.
        #expect(await cache.file(for: track(server.url("page.jpg").absoluteString)) == nil)
        #expect(await cache.file(for: track(server.url("missing.png").absoluteString)) == nil)
        #expect(await cache.file(for: track("")) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cacheDirectory.url.path) == [file.lastPathComponent])
    }

    @Test func pastItsCapacityTheLeastRecentlyUsedCoversGo() async throws {
        let served = try TemporaryDirectory(prefix: "mhz-covers-served")
        // A PNG's signature and a name: an image as far as the cache can tell, each distinct.
        for name in ["a", "b", "c"] {
            try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("cover \(name)".utf8)).write(to: served.path("\(name).png"))
        }
        let server = try await StaticFileServer(root: served.url)
        defer { server.stop() }
        let cacheDirectory = try TemporaryDirectory(prefix: "mhz-covers")
        let cache = CoverCache(directory: cacheDirectory.url, http: HTTPClient())
        func picture(_ name: String) -> String { server.url("\(name).png").absoluteString }
        func cover(_ name: String) async throws -> URL {
            try #require(await cache.file(for: track(picture(name))))
        }
        /// Marks `file` as last used `secondsAgo` seconds ago (modification time, as the cache keeps it).
        func used(_ file: URL, secondsAgo: Int) {
            let then = Int(Date().timeIntervalSince1970) - secondsAgo
            var times = [timeval(tv_sec: then, tv_usec: 0), timeval(tv_sec: then, tv_usec: 0)]
            #expect(utimes(file.path, &times) == 0)
        }
        // The cache full: a's cover kept longest ago, then capacity - 1 others, each used
        // later than the one before.
        let a = cacheDirectory.path(CoverCache.name(for: picture("a")))
        try Data("kept a".utf8).write(to: a)
        used(a, secondsAgo: 10_000)
        var others: [URL] = []
        for index in 1..<CoverCache.capacity {
            let file = cacheDirectory.path(CoverCache.name(for: "http://elsewhere.example/\(index).png"))
            try Data("kept \(index)".utf8).write(to: file)
            used(file, secondsAgo: 5_000 - index)
            others.append(file)
        }
        // a is shown again: from the file, not fetched, and now the most recently used.
        #expect(try await cover("a") == a)
        #expect(server.recorder.requests(to: "/a.png").isEmpty)
        #expect(try Data(contentsOf: a) == Data("kept a".utf8))
        // One past the capacity: the one used longest ago (not a) makes room.
        let b = try await cover("b")
        var kept = Set([a, b] + others.dropFirst()).map(\.lastPathComponent).sorted()
        #expect(try cacheDirectory.contents() == kept)
        // And again: the next oldest goes, a and b stay.
        let c = try await cover("c")
        kept = Set([a, b, c] + others.dropFirst(2)).map(\.lastPathComponent).sorted()
        #expect(try cacheDirectory.contents() == kept)
        #expect(server.recorder.requests(to: "/b.png").count == 1)
        #expect(server.recorder.requests(to: "/c.png").count == 1)
    }

    @Test func aLocalCoverIsUsedWhereItIs() async throws {
        let directory = try TemporaryDirectory(prefix: "mhz-covers-local")
        let png = directory.path("drawn-1.png")
        try MediaFactory.solidImage(at: png, color: "red")
        let cache = CoverCache(directory: directory.path("cache"), http: HTTPClient())
        #expect(await cache.file(for: track(png.absoluteString)) == png)
        #expect(await cache.file(for: track(directory.path("gone.png").absoluteString)) == nil)
        #expect(!FileManager.default.fileExists(atPath: directory.path("cache").path))
    }

    @Test func onlyImagesCount() {
        #expect(CoverCache.isImage(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D])))
        #expect(CoverCache.isImage(Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0, count: 8))))
        #expect(CoverCache.isImage(Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBP".utf8)))
        #expect(!CoverCache.isImage(Data("<!DOCTYPE html><html>".utf8)))
        #expect(!CoverCache.isImage(Data([0x89, 0x50])))
        #expect(CoverCache.name(for: "http://img/a.JPG?x=1").hasSuffix(".jpg"))
        #expect(CoverCache.name(for: "http://img/cover").hasSuffix(".img"))
    }
}
