import Foundation
import GRDB
import MusicLibrary
import StationStorage
import Testing
import TestSupport
@testable import SoundFeatures

/// Loudness kept in the station database with the sound features: written by the
/// background analysis, measured again for rows that lack it, without losing their features.
@Suite("Stored loudness")
struct LoudnessRecordsTests {
    /// Three short tones at levels 10 dB apart.
    private static func tones(_ music: URL) throws {
        for (index, volume) in [1.0, 0.316, 0.1].enumerated() {
            try SoundSamples.tone(music.appendingPathComponent("Album/\(index + 1) Tone.flac"),
                                  frequency: 440, seconds: 3, volume: volume)
        }
    }

    /// path → (loudness, true peak, loudness version) as stored.
    private static func loudness(_ database: StationDatabase) throws -> [String: (Double?, Double?, Int)] {
        try database.access { db in
            var rows: [String: (Double?, Double?, Int)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT path, loudness, true_peak, loudness_version FROM sound") {
                rows[row["path"]] = (row["loudness"], row["true_peak"], row["loudness_version"])
            }
            return rows
        }
    }

    @Test("the analysis stores each file's loudness and true peak, as FFmpeg's ebur128 measures them")
    func stored() async throws {
        let library = try await AnalysedLibrary(Self.tones)
        defer { library.remove() }
        let analysis = library.analysis()
        analysis.schedule(try library.scan(), publish: library.publish)
        await analysis.idle()
        let rows = try Self.loudness(library.database)
        #expect(rows.count == 3)
        let music = library.music
        for (index, path) in ["Album/1 Tone.flac", "Album/2 Tone.flac", "Album/3 Tone.flac"].enumerated() {
            let row = try #require(rows[path])
            #expect(row.2 == Loudness.version)
            let reference = try await offPool { try LoudnessProbe.measure(music.appendingPathComponent(path)) }
            let level = try #require(row.0), peak = try #require(row.1)
            #expect(abs(level - reference.integrated) < 0.3, "\(path): \(level) vs ffmpeg \(reference.integrated)")
            #expect(abs(peak - reference.truePeak) < 0.3, "\(path): \(peak) vs ffmpeg \(reference.truePeak)")
            // 0 dB, −10 dB, −20 dB.
            #expect(abs(level - (try #require(rows["Album/1 Tone.flac"]?.0)) + Double(index) * 10) < 0.2)
        }
    }

    @Test("rows measured before loudness are measured again, their features published meanwhile")
    func staleLoudness() async throws {
        let library = try await AnalysedLibrary(Self.tones)
        defer { library.remove() }
        let scanned = try library.scan()
        let analysis = library.analysis()
        analysis.schedule(scanned, publish: library.publish)
        await analysis.idle()
        let records = SoundRecords(database: library.database)
        guard case .measured(let measured, _) = try records.survey()["Album/1 Tone.flac"] else {
            Issue.record("the first file was not measured")
            return
        }
        // Two rows as a station before loudness left them.
        try library.database.write { db in
            try db.execute(sql: """
                UPDATE sound SET loudness = NULL, true_peak = NULL, loudness_version = 0
                WHERE path IN ('Album/1 Tone.flac', 'Album/2 Tone.flac')
                """)
        }
        let known = try records.survey()
        guard case .stale(let features, _, _) = known["Album/1 Tone.flac"] else {
            Issue.record("not stale: \(String(describing: known["Album/1 Tone.flac"]))")
            return
        }
        #expect(features == measured)
        if case .measured = known["Album/3 Tone.flac"] {} else { Issue.record("the third file is not measured") }
        // Where loudness cannot be measured, such rows count as measured: no endless re-analysis.
        let withoutMeter = try records.survey(loudnessAvailable: false)
        #expect(withoutMeter["Album/1 Tone.flac"] == .measured(features, nil))

        let published = library.published.value.count
        analysis.schedule(scanned, publish: library.publish)
        await analysis.idle()
        #expect(analysis.progress?.queued == 2 && analysis.progress?.measured == 2 && analysis.progress?.known == 1)
        // The survey's table already had all three files' features.
        #expect(library.published.value[published].analysedCount == 3)
        let rows = try Self.loudness(library.database)
        #expect(rows.values.allSatisfy { $0.0 != nil && $0.2 == Loudness.version })
    }

    @Test("a station database of v6 opens with its sound rows kept, their loudness unmeasured")
    func migration() throws {
        let data = try TemporaryDirectory(prefix: "mhz-station-v6")
        defer { data.remove() }
        let queue = try DatabaseQueue(path: data.path(StationDatabase.fileName).path)
        try StationDatabase.migrator.migrate(queue, upTo: "v6")
        let features = SoundRecords.encode([Float](repeating: 0.5, count: SoundFeature.count))
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO sound (path, size, mtime, version, features, failure, seconds)
                VALUES ('a.flac', 10, 20, ?, ?, NULL, 3.0)
                """, arguments: [SoundFeature.version, features])
        }
        try queue.close()
        let rows = try Self.loudness(try StationDatabase(directory: data.url))
        let row = try #require(rows["a.flac"])
        #expect(row.0 == nil && row.1 == nil && row.2 == 0)
    }
}
