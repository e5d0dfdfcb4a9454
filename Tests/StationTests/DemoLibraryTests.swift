import Foundation
import RadioAPI
@testable import Station
import Testing
import TestSupport
@testable import DemoLibrary
@testable import MusicLibrary

/// The demo library: synthesized, tagged through TagLib, scanned back like any music.
@Suite("Demo library")
struct DemoLibraryTests {
    @Test("a station without a library synthesizes at least 8 audible, distinct tracks in 3 genre channels")
    func synthesizesDemo() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-demo")
        let station = try await Station(configuration: StationConfiguration(library: nil, dataDirectory: data.url))
        let info = station.libraryInfo
        let folder = data.url.appendingPathComponent("demo-library", isDirectory: true)
        #expect(info.isDemo)
        #expect(info.path == folder)
        #expect(info.trackCount == 9)
        #expect(info.genres == ["Ambient", "Chiptune", "Folk"])
        // Personal, three genres, and the 2010s (seven songs; the 2020s have only two).
        #expect(info.channels.map(\.id) == ["0", "1", "2", "3", "4"])

        let tracks = try LibraryScanner(root: folder).scan()
        #expect(tracks.count == 9)
        #expect(Set(tracks.map(\.title)).count == tracks.count)
        #expect(Set(tracks.map(\.artist)).count == tracks.count)
        #expect(Set(tracks.map(\.album)).count == tracks.count)
        #expect(tracks.contains { $0.title == "月光小路" && $0.artist == "林溪" && $0.album == "山谷来信" })
        for genre in ["Ambient", "Chiptune", "Folk"] {
            #expect(tracks.filter { $0.genre == genre }.count == 3, "\(genre)")
        }
        var hashes = Set<Int>()
        for track in tracks {
            #expect((20...60).contains(track.durationSeconds), "\(track.title): \(track.durationSeconds) s")
            // Compressed: MP3 at 64 kbit/s, decoded back to PCM to be listened to.
            #expect(track.fileExtension == "mp3")
            #expect(track.bitrate == DemoLibrary.bitrate, "\(track.title)")
            #expect(track.year >= 2000, "\(track.title)")
            let decoded = data.url.appendingPathComponent("decoded-\(track.sid).wav")
            let arguments = ["-v", "error", "-y", "-i", track.file.path, "-c:a", "pcm_s16le", decoded.path]
            try await offPool { try MediaFactory.run("ffmpeg", arguments) }
            let wav = try WAVFile(contentsOf: decoded)
            #expect(wav.sampleRate == 22_050 && wav.channels == 1 && wav.bitsPerSample == 16)
            #expect(abs(wav.seconds - Double(track.durationSeconds)) < 1)
            #expect(wav.rms > 0.05, "\(track.title) is too quiet: \(wav.rms)")
            // Not one steady tone: the pitch contour moves.
            let contour = wav.crossingRates(window: 0.25)
            #expect(Set(contour).count >= 8, "\(track.title): \(Set(contour).count) distinct crossing rates")
            hashes.insert(wav.samples.hashValue)
        }
        #expect(hashes.count == tracks.count)
    }

    @Test("a WAV demo track an earlier station wrote is replaced by the MP3")
    func replacesWAVTracks() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-demo-wav")
        let demo = DemoLibrary(directory: data.url.appendingPathComponent("demo-library", isDirectory: true))
        let piece = DemoLibrary.pieces[0]
        let wav = demo.file(for: piece).deletingPathExtension().appendingPathExtension("wav")
        try FileManager.default.createDirectory(at: wav.deletingLastPathComponent(), withIntermediateDirectories: true)
        try WAVWriter.data(samples: [Int16](repeating: 0, count: 22_050), sampleRate: 22_050).write(to: wav)
        let station = try await Station(configuration: StationConfiguration(library: nil, dataDirectory: data.url))
        #expect(station.libraryInfo.trackCount == 9)
        #expect(!FileManager.default.fileExists(atPath: wav.path))
        #expect(FileManager.default.fileExists(atPath: demo.file(for: piece).path))
    }

    @Test("every piece has its own melody of many pitches, and a 20–60 s length")
    func melodiesDiffer() {
        var melodies: [[Int]] = []
        for piece in DemoLibrary.pieces {
            var composer = DemoComposer(piece: piece)
            let score = composer.compose()
            let pitches = score.lead.map(\.pitch)
            #expect(Set(pitches).count >= 6, "\(piece.title): \(Set(pitches).sorted())")
            #expect(!score.bass.isEmpty)
            let seconds = score.beats * 60 / piece.tempo
            #expect((20...58).contains(seconds), "\(piece.title): \(seconds) s")
            melodies.append(Array(pitches.prefix(24)))
        }
        #expect(Set(melodies).count == DemoLibrary.pieces.count)
        // Same seed, same music: every machine synthesizes the same library.
        var again = DemoComposer(piece: DemoLibrary.pieces[0])
        var once = DemoComposer(piece: DemoLibrary.pieces[0])
        #expect(again.compose() == once.compose())
    }

    @Test("a second station reuses the files; a missing track is redone and old leftovers removed")
    func reusesAndRepairs() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-demo-reuse")
        let first = try await Station(configuration: StationConfiguration(library: nil, dataDirectory: data.url))
        let folder = first.libraryInfo.path
        let files = try LibraryScanner(root: folder).scan().map(\.file)
        let dates = try files.map { try modificationDate($0) }

        let second = try await Station(configuration: StationConfiguration(library: nil, dataDirectory: data.url))
        #expect(try files.map { try modificationDate($0) } == dates)
        #expect(second.libraryInfo == first.libraryInfo)

        // An interrupted run: one track missing, one stale temporary file, one fresh one
        // (possibly another station's write in progress, so it must stay).
        try FileManager.default.removeItem(at: files[0])
        let albumFolder = files[0].deletingLastPathComponent()
        let stale = albumFolder.appendingPathComponent(".partial-deadbeef-x.wav")
        let fresh = albumFolder.appendingPathComponent(".partial-cafebabe-y.wav")
        try Data("half".utf8).write(to: stale)
        try Data("half".utf8).write(to: fresh)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: stale.path)

        let third = try await Station(configuration: StationConfiguration(library: nil, dataDirectory: data.url))
        #expect(third.libraryInfo.trackCount == 9)
        #expect(FileManager.default.fileExists(atPath: files[0].path))
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: fresh.path))
        #expect(try files.dropFirst().map { try modificationDate($0) } == Array(dates.dropFirst()))
        #expect(try LibraryScanner(root: folder).scan().map(\.sid) == LibraryScanner(root: folder).scan().map(\.sid))
    }

    @Test("a library folder without playable files falls back to the demo; a usable one does not")
    func fallback() async throws {
        let empty = try TemporaryDirectory(prefix: "mhz-empty-library")
        try Data("text".utf8).write(to: empty.path("readme.txt"))
        // A data directory of its own, the demo linked in once it is complete: stations
        // sharing one would race on writing the demo and on the database.
        let emptyCaseData = try await StationFixtures.freshDataDirectory()
        let station = try await Station(configuration: StationConfiguration(
            library: empty.url, dataDirectory: emptyCaseData.url))
        #expect(station.libraryInfo.isDemo)
        #expect(station.libraryInfo.trackCount == 9)

        let music = try await StationFixtures.sharedTaggedLibrary
        let musicCaseData = try await StationFixtures.freshDataDirectory()
        let real = try await Station(configuration: StationConfiguration(
            library: music, dataDirectory: musicCaseData.url))
        #expect(!real.libraryInfo.isDemo)
        #expect(real.libraryInfo.path == music)
        #expect(real.libraryInfo.trackCount == StationFixtures.taggedFiles.count)
        // Rock (mp3, flac) and Jazz (ogg, m4a) have two songs each, Ambient and Choral one:
        // none reaches the three songs a channel needs.
        #expect(real.libraryInfo.genres == [])
        #expect(real.libraryInfo.channels.map(\.id) == ["0"])
    }

    private func modificationDate(_ url: URL) throws -> Date {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
    }
}
