import Foundation
import GRDB
import Store
import TestSupport
import Testing

/// `v9-history` is registered after `v11-scrobble-outbox`, which shipped first: a database
/// an mhz without the history wrote (migrated through v11) opens, gains the history table,
/// and keeps what it held.
struct HistoryMigrationTests {
    @Test func aDatabaseAtV11GainsTheHistory() throws {
        let dir = try TemporaryDirectory(prefix: "mhz-migrate")
        let path = dir.path("mhz.sqlite")
        do {
            // Every migration up to v11 is the same in both mhz versions: the database this
            // one creates, less what v9 made, is the one the earlier mhz left.
            let database = try MhzDatabase(path: path)
            try database.setSetting("channel", "-3")
        }
        do {
            let old = try DatabaseQueue(path: path.path)
            try old.write { db in
                // The lyric nudges' v10 came later than v11 too, and v12 remade the history's
                // table: gone as well.
                try db.execute(sql: """
                    DROP TABLE listen; DROP TABLE lyric_offset;
                    DELETE FROM grdb_migrations WHERE identifier IN ('v9-history', 'v10-lyric-offsets', 'v12-listen-song')
                    """)
            }
            let applied = try old.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
            #expect(applied.last == "v11-scrobble-outbox")
            #expect(!applied.contains("v9-history"))
        }
        let database = try MhzDatabase(path: path)
        #expect(try database.setting("channel") == "-3")
        let id = try database.insertListen(ListenRecord(station: "embedded", channel: "-3", sid: "41",
                                                       startedAt: Date(timeIntervalSince1970: 1000),
                                                       song: ListenSong(title: "T", artist: "A")))
        #expect(try database.listens(limit: nil).map(\.id) == [id])
        let check = try DatabaseQueue(path: path.path)
        let applied = try check.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(Set(applied).isSuperset(of: ["v9-history", "v10-lyric-offsets", "v11-scrobble-outbox", "v12-listen-song"]))
    }
}
