import Foundation
import RadioAPI
@testable import Station
import Testing
import TestSupport
@testable import MusicLibrary

/// Incremental rescans: unchanged files are not reread, the library follows the folder
/// while the station serves, and song ids stay pinned to their files.
@Suite("Rescan")
struct RescanTests {
    /// A private copy of the first `count` generated files (their folders kept), to change.
    private func copyOfGenerated(_ count: Int) async throws -> (TemporaryDirectory, [GeneratedLibrary.File]) {
        let source = try await GeneratedLibrary.root
        let copy = try TemporaryDirectory(prefix: "mhz-rescan")
        let files = Array(GeneratedLibrary.files.prefix(count))
        for file in files {
            let target = copy.url.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source.appendingPathComponent(file.path), to: target)
        }
        return (copy, files)
    }

    @Test("an unchanged library is not reread; a changed file is reread, alone; new files appear, removed ones go")
    func incremental() async throws {
        let (music, files) = try await copyOfGenerated(30)
        try await StationFixtures.withDemoStation(library: music.url) { station, base in
            #expect(station.lastScan.read == 30)
            #expect(station.lastScan.added == 30)
            let before = station.servedLibrary.tracks
            let generation = station.servedLibrary.facets.generation

            let unchanged = try await station.rescan()
            #expect(unchanged.files == 30 && unchanged.tracks == 30)
            #expect(unchanged.read == 0, "an unchanged file was reread")
            #expect(unchanged.added == 0 && unchanged.removed == 0)
            #expect(station.servedLibrary.tracks == before)
            // The library served is kept, not rebuilt: listeners' weights are keyed by its generation.
            #expect(station.servedLibrary.facets.generation == generation, "an unchanged rescan rebuilt the library")

            // Retag one file (ffmpeg rewrites it: new size and time); only it is read again.
            let changed = music.url.appendingPathComponent(files[3].path)
            let retagged = music.url.appendingPathComponent(".retag." + changed.pathExtension)
            try await offPool {
                try MediaFactory.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", changed.path, "-c", "copy",
                                                "-metadata", "title=Renamed Song", retagged.path])
            }
            try FileManager.default.removeItem(at: changed)
            try FileManager.default.moveItem(at: retagged, to: changed)
            let one = try await station.rescan()
            #expect(one.read == 1)
            #expect(station.servedLibrary.facets.generation != generation, "a changed file kept the old library")
            let renamed = try #require(station.servedLibrary.tracks.first { $0.relativePath == files[3].path })
            #expect(renamed.title == "Renamed Song")
            #expect(renamed.sid == before[3].sid)

            // Remove one, add one: the removed song's media is gone, the others keep their ids.
            let removed = before[0]
            try FileManager.default.removeItem(at: removed.file)
            let added = "New Artist/New Album/01 Fresh.mp3"
            let addedURL = music.url.appendingPathComponent(added)
            try FileManager.default.createDirectory(at: addedURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: before[1].file, to: addedURL)
            let changes = try await station.rescan()
            #expect(changes.read == 1 && changes.added == 1 && changes.removed == 1)
            let after = station.servedLibrary
            #expect(after.track(sid: removed.sid) == nil)
            #expect(try await HTTPFetch.get(base, "/media/\(removed.mediaFileName)").status == 404)
            for track in before.dropFirst() {
                #expect(after.tracks.first { $0.relativePath == track.relativePath }?.sid == track.sid)
            }
            let fresh = try #require(after.tracks.first { $0.relativePath == added })
            #expect(try await HTTPFetch.get(base, "/media/\(fresh.mediaFileName)").status == 200)

            // The removed file comes back: it gets its old id again.
            try FileManager.default.copyItem(at: before[1].file, to: removed.file)
            _ = try await station.rescan()
            #expect(station.servedLibrary.tracks.first { $0.relativePath == removed.relativePath }?.sid == removed.sid)
        }
    }

    @Test("a new file whose id would collide takes the next one; the existing file keeps its pinned id")
    func pinnedIDs() async throws {
        let (source, files) = try await copyOfGenerated(1)
        let music = try TemporaryDirectory(prefix: "mhz-pins")
        let sample = source.url.appendingPathComponent(files[0].path)
        // Both paths hash to one slot (LibraryScannerTests.collisionsProbe); the later one in
        // sorted order would get the next id if both were new at once.
        let first = "Artist/Album/067298.\(sample.pathExtension)"
        let second = "Artist/Album/121390.\(sample.pathExtension)"
        try FileManager.default.createDirectory(at: music.path("Artist/Album"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: sample, to: music.path(second))
        try await StationFixtures.withDemoStation(library: music.url) { station, _ in
            let alone = try #require(station.servedLibrary.tracks.first)
            #expect(alone.sid == "384859697")
            try FileManager.default.copyItem(at: sample, to: music.path(first))
            _ = try await station.rescan()
            let tracks = station.servedLibrary.tracks
            #expect(tracks.first { $0.relativePath == second }?.sid == "384859697", "the existing file kept its id")
            #expect(tracks.first { $0.relativePath == first }?.sid == "384859698", "the newcomer probed past it")
            // A scan from scratch would have shifted the existing file instead.
            #expect(TrackIdentity.songIDs(for: [first, second])[second] == "384859698")
        }
    }

    @Test("while serving, the timer rescan brings new files in without a restart")
    func timer() async throws {
        let (music, files) = try await copyOfGenerated(5)
        let data = try await StationFixtures.freshDataDirectory()
        let station = try await Station(configuration: StationConfiguration(
            library: music.url, dataDirectory: data.url, rescanInterval: .milliseconds(200)))
        let base = try await station.start()
        try await withCleanup {
            #expect(station.libraryInfo.trackCount == 5)
            let copy = music.url.appendingPathComponent("Later/Album/01 Late.\((files[0].path as NSString).pathExtension)")
            try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: music.url.appendingPathComponent(files[0].path), to: copy)
            try await waitUntil("a timer rescan to take the new file in") { station.libraryInfo.trackCount >= 6 }
            #expect(station.libraryInfo.trackCount == 6)
            let late = try #require(station.servedLibrary.tracks.first { $0.relativePath.hasPrefix("Later/") })
            #expect(try await HTTPFetch.get(base, "/media/\(late.mediaFileName)").status == 200)
        } cleanup: {
            await station.stop()
        }
        withExtendedLifetime(data) {}
    }

    @Test("the scan cache, pins and feedback outlive the station: a restart rereads nothing")
    func restart() async throws {
        let (music, _) = try await copyOfGenerated(12)
        let data = try await StationFixtures.freshDataDirectory()
        let first = try await Station(configuration: StationConfiguration(
            library: music.url, dataDirectory: data.url, seed: 3, rescanInterval: nil))
        #expect(first.lastScan.read == 12)
        let tracks = first.servedLibrary.tracks
        let channels = first.libraryInfo.channels
        let base = try await first.start()
        let alice = try await StationFixtures.signIn("alice", station: first, base: base)
        let trashed = tracks[2].sid
        let query = "/j/app/radio/people?app_name=radio_android&version=100" + alice
        #expect(try await HTTPFetch.get(base, query + "&channel=0&type=b&sid=\(trashed)").status == 200)
        await first.stop()

        let second = try await Station(configuration: StationConfiguration(
            library: music.url, dataDirectory: data.url, seed: 3, rescanInterval: nil))
        #expect(second.lastScan.read == 0)
        #expect(second.servedLibrary.tracks == tracks)
        #expect(second.libraryInfo.channels == channels)
        let again = try await second.start()
        try await withCleanup {
            // The token from before the restart still works, and the trash is remembered.
            for _ in 0..<15 {
                let list = try await HTTPFetch.get(again, query + "&channel=0&type=n&sid=").jsonObject()
                let sids = (list["song"] as? [[String: Any]] ?? []).compactMap { $0["sid"] as? String }
                #expect(sids.count == 5)
                #expect(!sids.contains(trashed))
            }
        } cleanup: {
            await second.stop()
        }
        withExtendedLifetime(data) {}
    }
}
