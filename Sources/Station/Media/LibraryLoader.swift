import DemoLibrary
import Foundation
import Logging
import MusicLibrary
import StationStorage
import Synchronization

/// Chooses and scans the library a station serves: the configured music folder when it
/// holds songs, else (for a folder nobody named, ``fallsBackToDemo``) the demo library,
/// synthesized on first use. Every scan, first or later, goes through the ``LibraryIndex``,
/// so only new and changed files are read; a rescan that finds music in a folder that was
/// empty switches from the demo to it. Files TagLib cannot open are read by FFmpeg
/// (``FFmpegTagReader``).
///
/// Blocking (TagLib, file system, SQLite): ``Station`` calls it on its scan queue.
final class LibraryLoader: Sendable {
    /// The folder asked for, or `nil`.
    let folder: URL?
    /// Whether a missing or songless `folder` means the demo library rather than an error.
    let fallsBackToDemo: Bool
    /// Where the demo library goes when needed.
    let demoDirectory: URL
    /// The cache and pins.
    let database: StationDatabase
    /// Where covers are kept.
    let covers: CoverStore
    /// Where a long scan says how far it has come (at most every ``ProgressPace/interval``),
    /// and a scan that changed something says what it did.
    let logger: Logger?
    /// The last scan's rows and tracks, by folder (scans run one at a time).
    private let memory = Mutex<[String: IndexMemory]>([:])

    /// Creates a loader.
    init(folder: URL?, fallsBackToDemo: Bool = true, demoDirectory: URL, database: StationDatabase, covers: CoverStore,
         logger: Logger? = nil) {
        self.folder = folder
        self.fallsBackToDemo = fallsBackToDemo
        self.demoDirectory = demoDirectory
        self.database = database
        self.covers = covers
        self.logger = logger
    }

    /// Scans and builds the library; or keeps `served` (the library served now, the same
    /// value with the same ``LibraryFacets/generation``) when the scan found exactly its
    /// tracks, in the same folder and of the same kind. A rescan that changed nothing then
    /// builds no channels, facets or sound table again (a quarter of a rescan's time with
    /// 50 000 tracks), and leaves every listener's weights over the library valid: they are
    /// keyed by its generation, and each was built again at the listener's next list.
    ///
    /// - Throws: ``StationError/libraryUnreadable(path:reason:)`` for a configured folder
    ///   that exists but cannot be listed (falling back to the demo would hide the mistake),
    ///   or a named one that does not exist; ``StationError/noSongs(path:extensions:)`` for a
    ///   named folder without songs; ``StationError/demoSynthesisFailed(path:reason:)`` when
    ///   the demo cannot be written, ``StationError/databaseFailed(path:reason:)`` when the
    ///   cache cannot be used.
    func load(keeping served: Library? = nil) throws(StationError) -> (library: Library, summary: ScanSummary) {
        if let folder, Self.isFolder(folder) {
            let scan = try index(folder)
            if !scan.tracks.isEmpty {
                return (Self.library(of: scan, root: folder, isDemo: false, passedOver: nil, keeping: served), scan.summary)
            }
            guard fallsBackToDemo else {
                throw .noSongs(path: folder.path, extensions: LibraryTrack.songExtensions.sorted())
            }
        } else if let folder, FileManager.default.fileExists(atPath: folder.path) {
            // A file where a folder was expected is a mistake to report, not an empty library.
            throw .libraryUnreadable(path: folder.path, reason: "not a folder")
        } else if let folder, !fallsBackToDemo {
            throw .libraryUnreadable(path: folder.path, reason: "no such folder")
        }
        let demo = DemoLibrary(directory: demoDirectory)
        do throws(StorageError) {
            try demo.ensure()
        } catch {
            throw .demoSynthesisFailed(path: error.path, reason: error.reason)
        }
        let scan = try index(demo.directory)
        guard scan.tracks.count >= DemoLibrary.pieces.count else {
            throw .demoSynthesisFailed(path: demo.directory.path,
                                       reason: "scanned \(scan.tracks.count) of \(DemoLibrary.pieces.count) tracks")
        }
        return (Self.library(of: scan, root: demo.directory, isDemo: true, passedOver: folder, keeping: served),
                scan.summary)
    }

    /// The library of `scan`: `served` when it is that library already, else a new one.
    private static func library(of scan: IndexResult, root: URL, isDemo: Bool, passedOver: URL?,
                                keeping served: Library?) -> Library {
        // Equal tracks are equal groups, whose channel ids are pinned: the catalog would be
        // the same too.
        if let served, served.root == root, served.isDemo == isDemo, served.passedOver == passedOver,
           served.tracks == scan.tracks {
            return served
        }
        return Library(tracks: scan.tracks, root: root, isDemo: isDemo, pins: scan.pins, passedOver: passedOver)
    }

    /// Scans one folder, handing it what the previous scan of that folder left.
    private func index(_ root: URL) throws(StationError) -> IndexResult {
        let previous = memory.withLock { $0[root.path] }
        let result: IndexResult
        let pace = Mutex(ProgressPace())
        let logger = self.logger
        do throws(LibraryError) {
            result = try LibraryIndex(root: root, database: database, covers: covers, otherReader: FFmpegTagReader())
                .update(after: previous) { read, toRead, seen in
                    guard let logger, read < toRead else { return }
                    let line = pace.withLock { pace in
                        pace.isDue() ? ScanSummary.progress(read: read, of: toRead, seen: seen, pace: pace) : nil
                    }
                    if let line { logger.info("\(line)") }
                }
        } catch {
            throw StationError(error)
        }
        if let logger, result.summary.read > 0 || result.summary.removed > 0 {
            logger.info("\(result.summary.closing)")
        }
        // Only the folder just scanned is remembered: the cache's root is now this one.
        memory.withLock { $0 = result.memory.map { [root.path: $0] } ?? [:] }
        return result
    }

    private static func isFolder(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
