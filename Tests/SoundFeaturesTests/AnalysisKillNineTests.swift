import Foundation
import GRDB
import StationStorage
import Testing
import TestSupport

/// The real `mhz serve` killed with SIGKILL while its sound analysis runs: the station
/// answers while it measures, the tracks committed before the kill are not measured again,
/// and the next start measures exactly the rest.
@Suite("Sound analysis after kill -9")
struct AnalysisKillNineTests {
    /// Tracks in the library: enough that the analysis is still running when two are in.
    static let trackCount = 16

    /// Rows of the `sound` table with features, read from the station's database as
    /// another process sees it (SQLite in WAL mode: a reader beside the station's writer).
    static func measuredRows(_ file: URL) throws -> Int {
        guard FileManager.default.fileExists(atPath: file.path) else { return 0 }
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: file.path, configuration: configuration)
        return try queue.read { db in
            guard try db.tableExists("sound") else { return 0 }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sound WHERE features IS NOT NULL") ?? 0
        }
    }

    @Test("a station killed half way through measures only what it had not committed, and answers meanwhile")
    func resumesAfterKillNine() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-sound-kill9")
        defer { home.remove() }
        let music = home.path("music"), data = home.path("data")
        try await offPool {
            for index in 0..<Self.trackCount {
                let format = ["flac", "ogg", "mp3"][index % 3]
                try SoundSamples.tone(music.appendingPathComponent("Album/\(index + 1) Tone.\(format)"),
                                      frequency: 200 + 40 * index, seconds: 30)
            }
        }
        let database = data.appendingPathComponent("station/\(StationDatabase.fileName)")
        let arguments = ["serve", "--data-dir", data.path, "--port", "0", "--library", music.path]
        let environment = ["MHZ_LOG_LEVEL": "info"]

        let first = try BuiltMhz(arguments, home: home.url, environment: environment)
        defer { first.kill() }
        let base = try await first.servedURL()
        // The analysis says it began once it has surveyed the library, which may be after the
        // station serves (on a busy machine, seconds after).
        let opening = "sound analysis: \(Self.trackCount) of \(Self.trackCount) tracks to measure"
        try await waitUntil("the analysis began: \(first.stderr)", within: .seconds(120)) { first.stderr.contains(opening) }
        // Two tracks committed: the analysis is under way. The station answers meanwhile.
        try await waitUntil("two tracks measured", within: .seconds(120)) { ((try? Self.measuredRows(database)) ?? 0) >= 2 }
        let channels = try await Tool.output("curl", ["-sS", "--max-time", "20",
                                                      base.appendingPathComponent("j/app/radio/channels").absoluteString])
        #expect(channels.status == 0 && channels.text.contains("\"channels\""), "\(channels.errors)")
        first.kill()
        let committed = try Self.measuredRows(database)
        #expect(!first.stderr.contains("sound analysis: measured"),
                "the analysis finished before the kill; the test proves nothing: \(first.stderr)")
        #expect(committed >= 2 && committed < Self.trackCount)

        let second = try BuiltMhz(arguments, home: home.url, environment: environment)
        defer { second.kill() }
        _ = try await second.servedURL()
        let rest = Self.trackCount - committed
        try await waitUntil("the second analysis's closing line", within: .seconds(180)) {
            second.stderr.contains("sound analysis: measured ")
        }
        #expect(second.stderr.contains("sound analysis: \(rest) of \(Self.trackCount) tracks to measure"), "\(second.stderr)")
        #expect(second.stderr.contains("sound analysis: measured \(rest) tracks, 0 unreadable"), "\(second.stderr)")
        #expect(try Self.measuredRows(database) == Self.trackCount)
        second.terminate()
        #expect(try await second.exit() == 0)
    }
}
