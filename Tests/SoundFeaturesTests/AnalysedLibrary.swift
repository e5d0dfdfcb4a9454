import Foundation
import GRDB
import Logging
import MusicLibrary
import StationStorage
import TestSupport
@testable import SoundFeatures

/// A music folder scanned into a station database of its own, as the station scans it,
/// with what its sound analysis publishes.
final class AnalysedLibrary: Sendable {
    /// The music folder and the data folder, removed by ``remove()``.
    let folder: TemporaryDirectory
    /// The station database in `folder/data`.
    let database: StationDatabase
    /// The tables published, in order.
    let published = Locked<[SoundTable]>([])

    /// The music folder's root.
    var music: URL { folder.path("music") }

    /// A fresh folder; `make` writes the music into it (off the cooperative pool).
    init(_ make: @escaping @Sendable (URL) throws -> Void) async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-sound-library")
        self.folder = folder
        try await offPool { try make(folder.path("music")) }
        database = try StationDatabase(directory: folder.path("data"))
    }

    /// Scans the folder (only what changed is read) and returns the library it holds.
    func scan() throws -> Library {
        let index = LibraryIndex(root: music, database: database, covers: CoverStore(directory: folder.path("data/covers")))
        let result = try index.update()
        return Library(tracks: result.tracks, root: music, isDemo: false, pins: result.pins)
    }

    /// A new analysis over the database (as a station started again would make).
    func analysis(workers: Int = 2, gate: AnalysisGate? = nil) -> BackgroundAnalysis {
        BackgroundAnalysis(records: SoundRecords(database: database), workers: workers,
                           logger: Logger(label: "mhz.test.sound"), gate: gate)
    }

    /// Where the analysis' tables go.
    var publish: BackgroundAnalysis.Publish {
        { [published] table in published.withLock { $0.append(table) } }
    }

    /// The rows of the `sound` table: path → failure (`nil` for a file measured).
    func rows() throws -> [String: String?] {
        try database.access { db in
            var rows: [String: String?] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT path, failure FROM sound") {
                rows[row["path"]] = .some(row["failure"])
            }
            return rows
        }
    }

    /// Removes the folders.
    func remove() { folder.remove() }
}
