import Foundation
import GRDB
import StationStorage
import Synchronization

/// Keeps the station's view of a music folder up to date, incrementally: each scan lists
/// the folder, rereads with TagLib only the files that are new or whose size or
/// modification time changed, and takes everything else from the scan cache in the
/// database. Files that went are marked absent; their song ids stay pinned to their paths,
/// so a file that comes back gets its old id, and a new file never takes an id another
/// path had. Channel ids are pinned the same way (see ``ChannelCatalog``).
///
/// Blocking (TagLib, file system, SQLite): ``Station`` runs scans one at a time on a
/// dispatch queue of their own.
package struct LibraryIndex: Sendable {
    /// The folder scanned.
    package let root: URL
    /// Where the cache and pins live.
    package let database: StationDatabase
    /// Where cover images are kept.
    package let covers: CoverStore
    /// What reads the files TagLib cannot (see ``MediaTagReader``).
    package let otherReader: (any MediaTagReader)?

    /// An index of `root` with its cache in `database` and its covers in `covers`, reading
    /// the files TagLib cannot open with `otherReader`.
    package init(root: URL, database: StationDatabase, covers: CoverStore, otherReader: (any MediaTagReader)? = nil) {
        self.root = root
        self.database = database
        self.covers = covers
        self.otherReader = otherReader
    }

    /// The `meta` key recording which folder the cache describes.
    package static let rootKey = "library_root"

    /// What a scan has done so far, handed to the caller of ``update(after:progress:)`` as
    /// files are read: `read` of the `toRead` new or changed files, `seen` files listed.
    package typealias Progress = @Sendable (_ read: Int, _ toRead: Int, _ seen: Int) -> Void

    /// Scans the folder and returns the library it now holds.
    ///
    /// - Parameter progress: called on the reading threads after each few files read (a
    ///   first scan of a large folder takes minutes): how many so far.
    /// - Returns: the present, readable tracks in path order, the channel pins, and what the
    ///   scan did.
    /// - Throws: ``LibraryError/folderUnreadable(path:reason:)`` when the folder cannot be
    ///   listed, ``LibraryError/storage(_:)`` when the cache cannot be read or written.
    package func update(after memory: IndexMemory? = nil, progress: Progress? = nil) throws(LibraryError) -> IndexResult {
        let started = ContinuousClock.now
        let scanner = LibraryScanner(root: root, otherReader: otherReader)
        let files = try scanner.playableFiles()
        // An empty folder leaves the cache alone: the station falls back to the demo
        // library, and recording the empty folder as the cache's root would make every
        // demo rescan reread everything.
        guard !files.isEmpty else {
            return IndexResult(tracks: [], pins: [:], memory: nil,
                               summary: ScanSummary(files: 0, tracks: 0, read: 0, added: 0, removed: 0,
                                                    duration: ContinuousClock.now - started))
        }
        let rootPath = root.standardizedFileURL.path
        // The previous scan's rows, from memory when this loader made it, else from the cache.
        let (cached, sameRoot): ([String: TrackRow], Bool)
        if let memory, memory.rootPath == rootPath {
            (cached, sameRoot) = (memory.rows, true)
        } else {
            (cached, sameRoot) = try cache { db in
                let stored = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [Self.rootKey])
                return (try Self.allRows(db), stored == rootPath)
            }
        }

        // Read what is new or changed; everything else is trusted from the cache.
        let stale = files.filter { file in
            guard sameRoot, let row = cached[file.relativePath], row.present, row.size == file.size,
                  row.modified == file.modified
            else { return true }
            return !(row.cover.isEmpty || coverIsStored(row.cover))
        }
        let reads = stale.count
        let seen = files.count
        let changed = readAll(stale, scanner: scanner) { read in progress?(read, reads, seen) }.enumerated().map { index, metadata in
            let file = stale[index]
            return TrackRow(stamp: file, sid: cached[file.relativePath]?.sid ?? "", metadata: metadata.tags,
                            cover: metadata.cover)
        }
        let found = Set(files.map(\.relativePath))
        let gone = cached.values.filter { $0.present && !found.contains($0.path) }.map(\.path)
        let added = changed.filter { cached[$0.path]?.present != true }.count

        // Nothing new, changed or gone after a scan this loader remembers: the library is the
        // one it built, and nothing is read from or written to the database.
        if let memory, memory.rootPath == rootPath, changed.isEmpty, gone.isEmpty {
            return IndexResult(tracks: memory.tracks, pins: memory.pins, memory: memory,
                               summary: ScanSummary(files: files.count, tracks: memory.tracks.count, read: 0, added: 0,
                                                    removed: 0, duration: ContinuousClock.now - started))
        }
        let unchanged = sameRoot && changed.isEmpty && gone.isEmpty
        let (rows, pins) = unchanged
            ? (cached, try cache { db in try Self.pins(db) })
            : try persist { db in try store(changed: changed, gone: gone, rootPath: rootPath, db) }
        let served = rows.values.filter { $0.present && $0.readable }.sorted { $0.path < $1.path }
        let tracks = Self.onEveryCore(served) { row in
            scanner.track(relativePath: row.path, sid: row.sid, metadata: row.metadata, cover: row.cover)
        }
        let finalPins = try persist { db in try pin(ChannelCatalog.groups(for: tracks), pins: pins, db) }
        if !changed.isEmpty || !gone.isEmpty { covers.removeAll(except: Set(served.map(\.cover))) }
        let summary = ScanSummary(files: files.count, tracks: tracks.count, read: reads, added: added,
                                  removed: gone.count, duration: ContinuousClock.now - started)
        return IndexResult(tracks: tracks, pins: finalPins,
                           memory: IndexMemory(rootPath: rootPath, rows: rows, tracks: tracks, pins: finalPins),
                           summary: summary)
    }

    /// Reads the tags and cover of every file, on every core: TagLib's reading is mostly
    /// file I/O and parsing, one file at a time per thread (see ``TagLibFile``), so a first
    /// scan of a large folder takes a fraction of the time one thread would. Results come
    /// back in the order of `files`.
    private func readAll(_ files: [FileStamp], scanner: LibraryScanner,
                         read progress: @Sendable (Int) -> Void) -> [(tags: TrackMetadata?, cover: String)] {
        let results = Mutex([(tags: TrackMetadata?, cover: String)](repeating: (nil, ""), count: files.count))
        let done = Atomic<Int>(0)
        // The cover found in each album folder, by folder path: the files of one folder
        // share it, and looking for it lists the folder.
        let folderCovers = Mutex<[String: String]>([:])
        // Slices of a few files each: few enough to keep every core busy to the end, many
        // enough that handing them out costs nothing beside TagLib's work.
        let slice = 8
        let slices = (files.count + slice - 1) / slice
        DispatchQueue.concurrentPerform(iterations: slices) { part in
            let range = (part * slice)..<min(files.count, (part + 1) * slice)
            var read: [(tags: TrackMetadata?, cover: String)] = []
            read.reserveCapacity(range.count)
            for index in range {
                let file = files[index]
                let metadata = scanner.readMetadata(relativePath: file.relativePath, withCover: true)
                read.append((metadata, metadata.map {
                    coverName(for: file.relativePath, embedded: $0.cover, folders: folderCovers)
                } ?? ""))
            }
            results.withLock { all in
                for (offset, value) in read.enumerated() { all[range.lowerBound + offset] = value }
            }
            progress(done.wrappingAdd(range.count, ordering: .relaxed).newValue)
        }
        return results.withLock { $0 }
    }

    /// `items.map(transform)`, in slices on every core: a track's names and ids are string
    /// work of a few microseconds each, which for a first scan of thousands of files took as
    /// long as the TagLib reads done in parallel before it.
    private static func onEveryCore<T: Sendable, U: Sendable>(_ items: [T], _ transform: @Sendable (T) -> U) -> [U] {
        let slice = 64
        let slices = (items.count + slice - 1) / slice
        guard slices > 1 else { return items.map(transform) }
        let parts = Mutex([[U]](repeating: [], count: slices))
        DispatchQueue.concurrentPerform(iterations: slices) { part in
            let done = items[(part * slice)..<min(items.count, (part + 1) * slice)].map(transform)
            parts.withLock { $0[part] = done }
        }
        return parts.withLock { $0.flatMap { $0 } }
    }

    /// Reads the scan cache.
    private func cache<T>(_ body: (Database) throws -> T) throws(LibraryError) -> T {
        do { return try database.access(body) } catch { throw .storage(error) }
    }

    /// Writes the scan cache in one transaction.
    private func persist<T>(_ body: (Database) throws -> T) throws(LibraryError) -> T {
        do { return try database.write(body) } catch { throw .storage(error) }
    }

    /// Writes the scan's changes and returns every row (present or not) and the pins.
    ///
    /// Song ids are assigned here, inside the write transaction, against every id pinned at
    /// that moment: two stations scanning one database never hand out one id twice.
    private func store(changed: [TrackRow], gone: [String], rootPath: String,
                       _ db: Database) throws -> ([String: TrackRow], [String: Int]) {
        let pinned = try Row.fetchAll(db, sql: "SELECT path, sid FROM track")
        var sidByPath: [String: String] = [:]
        for row in pinned { sidByPath[row["path"]] = row["sid"] }
        let newPaths = changed.map(\.path).filter { sidByPath[$0] == nil }
        let assigned = TrackIdentity.songIDs(for: newPaths, avoiding: Set(sidByPath.values))
        for var row in changed {
            row.sid = sidByPath[row.path] ?? assigned[row.path] ?? row.sid
            try row.upsert(db)
        }
        for path in gone {
            try db.cachedStatement(sql: "UPDATE track SET present = 0 WHERE path = ?").execute(arguments: [path])
        }
        try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                       arguments: [Self.rootKey, rootPath])
        return (try Self.allRows(db), try Self.pins(db))
    }

    private static func allRows(_ db: Database) throws -> [String: TrackRow] {
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM track").map(TrackRow.init(row:))
        return Dictionary(rows.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Gives every qualifying group without a channel id the next free one, in group order.
    private func pin(_ groups: [ChannelCatalog.Group], pins: [String: Int], _ db: Database) throws -> [String: Int] {
        let missing = groups.filter { pins[$0.key] == nil }
        guard !missing.isEmpty else { return pins }
        var current = try Self.pins(db)
        var next = (current.values.max() ?? 0) + 1
        for group in missing where current[group.key] == nil {
            try db.cachedStatement(sql: "INSERT INTO channel_pin (key, id) VALUES (?, ?)").execute(arguments: [group.key, next])
            current[group.key] = next
            next += 1
        }
        return current
    }

    private static func pins(_ db: Database) throws -> [String: Int] {
        var pins: [String: Int] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, id FROM channel_pin") { pins[row["key"]] = row["id"] }
        return pins
    }

    /// The cover of a file just read: its embedded picture, else its album folder's image
    /// (looked for once per folder and scan, remembered in `folders`).
    private func coverName(for relativePath: String, embedded: Data?, folders: borrowing Mutex<[String: String]>) -> String {
        if let embedded, let name = covers.store(embedded) { return name }
        let folderPath = PathNames.folderPath(of: relativePath)
        if let known = folders.withLock({ $0[folderPath] }) { return known }
        let name = folderCover(root.appendingPathComponent(relativePath).deletingLastPathComponent())
        folders.withLock { $0[folderPath] = name }
        return name
    }

    /// The image of an album folder, stored; empty when it has none.
    private func folderCover(_ folder: URL) -> String {
        guard let image = CoverStore.folderImage(in: folder),
              let size = (try? FileManager.default.attributesOfItem(atPath: image.path))?[.size] as? Int,
              size <= CoverStore.maximumSize, let data = try? Data(contentsOf: image)
        else { return "" }
        return covers.store(data) ?? ""
    }

    private func coverIsStored(_ name: String) -> Bool {
        var info = stat()
        return covers.file(named: name) != nil && stat(covers.directory.path + "/" + name, &info) == 0
    }
}

/// What the last scan of a folder left, kept by the ``LibraryLoader`` between scans so a
/// rescan that finds nothing changed needs neither the database nor a rebuild.
package struct IndexMemory: Sendable {
    /// The folder scanned (standardized path).
    package var rootPath: String
    /// Every cache row after the scan, present or not, by path.
    package var rows: [String: TrackRow]
    /// The tracks served.
    package var tracks: [LibraryTrack]
    /// The channel pins.
    package var pins: [String: Int]
}

/// The outcome of ``LibraryIndex/update(after:)``.
package struct IndexResult: Sendable {
    /// The present, readable tracks in path order.
    package var tracks: [LibraryTrack]
    /// The channel id of every pinned group.
    package var pins: [String: Int]
    /// What to hand the next scan; `nil` when the folder held nothing playable.
    package var memory: IndexMemory?
    /// What the scan did.
    package var summary: ScanSummary
}
