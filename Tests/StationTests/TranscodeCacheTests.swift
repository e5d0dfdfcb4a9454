import Foundation
import MusicLibrary
@testable import Station
import Testing
import TestSupport

/// The transcode cache's folder kept under its size limit (2 GiB unless set): after each
/// job, the files read least recently go until what is left fits; part files of running
/// jobs are neither counted nor touched. Sparse files stand in for gigabytes of songs:
/// their size is what the cache counts, and they take no room on the disk.
struct TranscodeCacheTests {
    /// Makes `name` in `folder` a sparse file of `bytes` bytes, last read `secondsAgo`
    /// seconds ago.
    @discardableResult
    func cached(_ name: String, bytes: Int, readSecondsAgo secondsAgo: Int, in folder: TemporaryDirectory) throws -> URL {
        let file = folder.path(name)
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        #expect(truncate(file.path, off_t(bytes)) == 0)
        let then = Int(Date().timeIntervalSince1970) - secondsAgo
        // utimes(2): access time, then modification time.
        var times = [timeval(tv_sec: then, tv_usec: 0), timeval(tv_sec: then, tv_usec: 0)]
        #expect(utimes(file.path, &times) == 0)
        return file
    }

    /// A one-second tone as the library's song `sid`.
    func tone(sid: String, in library: TemporaryDirectory) async throws -> LibraryTrack {
        let source = library.path("tone-\(sid).flac")
        try await offPool { try MediaFactory.tone(at: source, seconds: 1) }
        return LibraryTrack(sid: sid, ssid: "0000", aid: "1", relativePath: source.lastPathComponent, file: source,
                            fileExtension: "flac", title: "Tone", artist: "", album: "", genre: "", year: 0,
                            durationSeconds: 1, bitrate: 0)
    }

    /// Transcodes `track` at 64 kbit/s through `cache` and waits for the finished file.
    func transcode(_ track: LibraryTrack, in cache: TranscodeCache) async throws -> URL {
        let job = try #require(try cache.job(for: track, as: .mp3(kbps: 64)))
        try await waitUntil("\(job.finalFile.lastPathComponent) finished") {
            FileManager.default.fileExists(atPath: job.finalFile.path)
        }
        return job.finalFile
    }

    @Test func pastTwoGiBTheLeastRecentlyReadFilesGoUntilTheRestFits() async throws {
        let library = try TemporaryDirectory(prefix: "mhz-transcode-source")
        let folder = try TemporaryDirectory(prefix: "mhz-transcode-cache")
        let gib = 1 << 30
        // 2 GiB less 100 kB: under the limit, and the new song (some 8 kB) still fits.
        try cached("1-128k.mp3", bytes: gib / 2, readSecondsAgo: 400, in: folder)
        try cached("2-128k.mp3", bytes: gib / 2, readSecondsAgo: 100, in: folder)
        try cached("3-64k.mp3", bytes: gib / 2, readSecondsAgo: 300, in: folder)
        try cached("4-192k.mp3", bytes: gib / 2 - 100_000, readSecondsAgo: 10, in: folder)
        // A running job's part file: hidden, neither counted nor removed.
        try cached(".9-128k.mp3.part", bytes: gib, readSecondsAgo: 900, in: folder)
        let cache = TranscodeCache(directory: folder.url)
        #expect(cache.sizeLimit == 2 << 30)
        let first = try await transcode(tone(sid: "77", in: library), in: cache)
        #expect(try folder.contents() == [".9-128k.mp3.part", "1-128k.mp3", "2-128k.mp3", "3-64k.mp3", "4-192k.mp3",
                                          first.lastPathComponent])

        // 100 kB more is past 2 GiB: the file read longest ago goes, and that is enough.
        try cached("5-128k.mp3", bytes: 100_000, readSecondsAgo: 50, in: folder)
        let second = try await transcode(tone(sid: "78", in: library), in: cache)
        try await waitUntil("the oldest file removed") { !FileManager.default.fileExists(atPath: folder.path("1-128k.mp3").path) }
        #expect(try folder.contents() == [".9-128k.mp3.part", "2-128k.mp3", "3-64k.mp3", "4-192k.mp3", "5-128k.mp3",
                                          first.lastPathComponent, second.lastPathComponent].sorted())

        // A GiB more: files go oldest first (3, then 2) until the rest fits.
        try cached("6-128k.mp3", bytes: gib, readSecondsAgo: 20, in: folder)
        let third = try await transcode(tone(sid: "79", in: library), in: cache)
        try await waitUntil("two more removed") { !FileManager.default.fileExists(atPath: folder.path("2-128k.mp3").path) }
        #expect(try folder.contents() == [".9-128k.mp3.part", "4-192k.mp3", "5-128k.mp3", "6-128k.mp3",
                                          first.lastPathComponent, second.lastPathComponent, third.lastPathComponent].sorted())
    }
}
