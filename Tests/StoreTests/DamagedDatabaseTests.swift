import Foundation
import GRDB
import Store
import TestSupport
import Testing

/// A database file that is not one any more (overwritten, cut short) is told apart from one
/// that cannot be opened, and can be moved aside whole, companions included.
struct DamagedDatabaseTests {
    @Test func aFileOfGarbageIsDamaged() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-damaged")
        let path = directory.path("mhz.sqlite")
        try Data(repeating: 0x5A, count: 8192).write(to: path)
        #expect(throws: StoreError.damaged(path: path.path, reason: "file is not a database")) {
            try MhzDatabase(path: path)
        }
    }

    @Test func aDatabaseCutShortIsDamaged() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-damaged")
        let path = directory.path("mhz.sqlite")
        do {
            let database = try MhzDatabase(path: path)
            for index in 0..<400 {
                try database.setSetting("key\(index)", String(repeating: "v", count: 200))
            }
        }
        // Checkpointed into the main file by the close above; now lose its second half.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path.path)[.size] as? Int)
        #expect(size > 40_000)
        let handle = try FileHandle(forWritingTo: path)
        try handle.truncate(atOffset: UInt64(size / 2))
        try handle.close()
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path.path + suffix) }
        var damaged = false
        do {
            _ = try MhzDatabase(path: path)
        } catch {
            if case .damaged(let where_, _) = error { damaged = where_ == path.path }
        }
        #expect(damaged)
    }

    @Test func aDamagedFileIsMovedAsideWithItsCompanions() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-damaged")
        let path = directory.path("mhz.sqlite")
        let bytes = Data(repeating: 0x5A, count: 4096)
        try bytes.write(to: path)
        try Data("wal".utf8).write(to: URL(fileURLWithPath: path.path + "-wal"))
        let kept = try MhzDatabase.setAside(path: path, stamp: 1_795_600_000)
        #expect(kept.lastPathComponent == "mhz.sqlite.damaged-1795600000")
        #expect(try Data(contentsOf: kept) == bytes)
        #expect(try Data(contentsOf: URL(fileURLWithPath: kept.path + "-wal")) == Data("wal".utf8))
        #expect(!FileManager.default.fileExists(atPath: path.path))
        // A new database opens in its place.
        let fresh = try MhzDatabase(path: path)
        #expect(try fresh.setting("anything") == nil)
    }

    @Test func aFileThatCannotBeReadIsNotCalledDamaged() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-damaged")
        // A directory where the file should be: SQLite cannot open it at all.
        let path = directory.path("mhz.sqlite")
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        do {
            _ = try MhzDatabase(path: path)
            Issue.record("a directory opened as a database")
        } catch {
            guard case .cannotOpen = error else { Issue.record("\(error)"); return }
        }
    }
}
