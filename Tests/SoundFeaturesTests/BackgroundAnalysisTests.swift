import Foundation
import GRDB
import MusicLibrary
import StationStorage
import Testing
import TestSupport
@testable import SoundFeatures

/// The background analysis against a real station database: each file measured once,
/// committed as it goes, resumed after a stop, unreadable files recorded and skipped,
/// rescans measuring only what changed.
@Suite("Background sound analysis")
struct BackgroundAnalysisTests {
    /// Six short tones, two seconds each, in three formats.
    private static func tones(_ music: URL) throws {
        for (index, frequency) in [220, 262, 330, 392, 440, 523].enumerated() {
            let format = ["flac", "ogg", "mp3"][index % 3]
            try SoundSamples.tone(music.appendingPathComponent("Album/\(index + 1) Tone \(frequency).\(format)"),
                                  frequency: frequency, seconds: 2)
        }
    }

    @Test("every track is measured once, committed, and published; a second run over the same database measures nothing")
    func measuresOnce() async throws {
        let library = try await AnalysedLibrary(Self.tones)
        defer { library.remove() }
        let scanned = try library.scan()
        let analysis = library.analysis()
        analysis.schedule(scanned, publish: library.publish)
        await analysis.idle()
        let round = try #require(analysis.progress)
        #expect(round.queued == 6 && round.known == 0 && round.measured == 6 && round.unreadable == 0)
        #expect(try library.rows().count == 6)
        #expect(try library.rows().values.allSatisfy { $0 == nil })
        let last = try #require(library.published.value.last)
        #expect(last.trackCount == 6 && last.analysedCount == 6)
        #expect(analysis.table(for: scanned).analysedCount == 6)
        // The 220 Hz tone is closer to the 262 Hz one than to the 523 Hz one.
        #expect(try #require(last.distance(0, 1)) < (try #require(last.distance(0, 5))))

        let again = library.analysis()
        again.schedule(scanned, publish: library.publish)
        await again.idle()
        #expect(again.progress?.queued == 0 && again.progress?.known == 6)
        let reloaded = try #require(library.published.value.last)
        #expect(reloaded.analysedCount == 6)
        for position in 0..<6 { #expect(reloaded.vector(at: position) == last.vector(at: position)) }
    }

    @Test("a run stopped half way keeps what it committed; the next run measures the rest only")
    func resumes() async throws {
        let library = try await AnalysedLibrary(Self.tones)
        defer { library.remove() }
        let scanned = try library.scan()
        let gate = AnalysisGate()
        let first = library.analysis(workers: 1, gate: gate)
        gate.allow(3)
        first.schedule(scanned, publish: library.publish)
        // The one worker stands at the gate for the fourth file: three are committed.
        await gate.arrival(4)
        await first.stop()
        #expect(try library.rows().count == 3)
        #expect(first.progress?.measured == 3)

        // As a station started again: a new database connection, a new analysis.
        let second = BackgroundAnalysis(records: SoundRecords(database: try StationDatabase(directory: library.folder.path("data"))),
                                        workers: 2, logger: .init(label: "mhz.test.sound"))
        second.schedule(scanned, publish: library.publish)
        await second.idle()
        #expect(second.progress?.queued == 3 && second.progress?.known == 3 && second.progress?.measured == 3)
        #expect(try library.rows().count == 6)
        #expect(library.published.value.last?.analysedCount == 6)
    }

    @Test("an unreadable file is recorded with its reason and skipped until it changes")
    func unreadable() async throws {
        let library = try await AnalysedLibrary { music in
            try Self.tones(music)
            try SoundSamples.undecodable(music.appendingPathComponent("Album/7 Damaged.wav"))
        }
        defer { library.remove() }
        let scanned = try library.scan()
        let damaged = try #require(scanned.tracks.firstIndex { $0.relativePath == "Album/7 Damaged.wav" })
        let analysis = library.analysis()
        analysis.schedule(scanned, publish: library.publish)
        await analysis.idle()
        #expect(analysis.progress?.measured == 6 && analysis.progress?.unreadable == 1)
        #expect(try library.rows()["Album/7 Damaged.wav"] == .some("no decoder for none"))
        let table = try #require(library.published.value.last)
        #expect(table.analysedCount == 6 && !table.isAnalysed(damaged))

        let again = library.analysis()
        again.schedule(scanned, publish: library.publish)
        await again.idle()
        #expect(again.progress?.queued == 0 && again.progress?.known == 7)
    }

    @Test("after a rescan only the changed and new files are measured; a removed file's row goes")
    func rescan() async throws {
        let library = try await AnalysedLibrary(Self.tones)
        defer { library.remove() }
        let analysis = library.analysis()
        analysis.schedule(try library.scan(), publish: library.publish)
        await analysis.idle()

        let music = library.music
        try await offPool {
            // Another sound in the same file (a new size and time), one file gone, one new.
            try SoundSamples.noise(music.appendingPathComponent("Album/2 Tone 262.ogg"), seconds: 2)
            try FileManager.default.removeItem(at: music.appendingPathComponent("Album/6 Tone 523.mp3"))
            try SoundSamples.tone(music.appendingPathComponent("Album/8 New.flac"), frequency: 600, seconds: 2)
        }
        let rescanned = try library.scan()
        analysis.schedule(rescanned, publish: library.publish)
        await analysis.idle()
        #expect(analysis.progress?.queued == 2 && analysis.progress?.known == 4)
        let rows = try library.rows()
        #expect(rows.count == 6 && rows["Album/6 Tone 523.mp3"] == nil && rows["Album/8 New.flac"] != nil)
        let table = try #require(library.published.value.last)
        #expect(table.trackCount == 6 && table.analysedCount == 6)
        // The file that became noise now measures far from the tones.
        let noisy = try #require(rescanned.tracks.firstIndex { $0.relativePath == "Album/2 Tone 262.ogg" })
        #expect(try #require(table.distance(noisy, 0)) > (try #require(table.distance(2, 0))))
    }

    @Test("a row measured by another version of the analysis is measured again")
    func version() async throws {
        let library = try await AnalysedLibrary(Self.tones)
        defer { library.remove() }
        let scanned = try library.scan()
        let analysis = library.analysis()
        analysis.schedule(scanned, publish: library.publish)
        await analysis.idle()
        try library.database.write { db in
            try db.execute(sql: "UPDATE sound SET version = ? WHERE path LIKE 'Album/1 %'", arguments: [SoundFeature.version - 1])
        }
        analysis.schedule(scanned, publish: library.publish)
        await analysis.idle()
        #expect(analysis.progress?.queued == 1 && analysis.progress?.measured == 1)
    }
}
