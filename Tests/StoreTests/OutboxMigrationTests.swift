import Foundation
import GRDB
import Store
import TestSupport
import Testing

/// A database written by an mhz whose outbox kept "no song" as an empty sid opens with
/// that row's sid as NULL, and every other row and column as it was.
struct OutboxMigrationTests {
    @Test func anEmptySidBecomesNullAndTheRestIsKept() throws {
        let dir = try TemporaryDirectory(prefix: "mhz-migrate")
        let path = dir.path("mhz.sqlite")
        do {
            // The schema as the first three migrations left it, with their names recorded.
            let old = try DatabaseQueue(path: path.path)
            try old.write { db in
                try db.execute(sql: """
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('v1-settings-positions'), ('v2-report-outbox'), ('v3-position-album');
                    CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    CREATE TABLE playback_position (sid TEXT PRIMARY KEY, channel TEXT NOT NULL, position DOUBLE NOT NULL,
                        duration DOUBLE NOT NULL, url TEXT NOT NULL, title TEXT NOT NULL, artist TEXT NOT NULL,
                        saved_at DATETIME NOT NULL, album TEXT NOT NULL DEFAULT '');
                    CREATE TABLE report_outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT NOT NULL,
                        channel TEXT NOT NULL, sid TEXT NOT NULL, history TEXT, played_time DOUBLE,
                        created_at DATETIME NOT NULL);
                    INSERT INTO report_outbox (id, type, channel, sid, history, played_time, created_at)
                        VALUES (7, 'r', '0', '41', NULL, 3.5, '2026-11-20 10:00:00.000'),
                               (9, 'e', '-3', '', '|41:r', NULL, '2026-11-20 10:00:01.000');
                    """)
            }
        }
        let database = try MhzDatabase(path: path)
        let rows = try database.pendingReports()
        #expect(rows.map(\.id) == [7, 9])
        #expect(rows.map(\.sid) == ["41", nil])
        #expect(rows.map(\.type) == ["r", "e"])
        #expect(rows.map(\.channel) == ["0", "-3"])
        #expect(rows.map(\.history) == [nil, "|41:r"])
        #expect(rows.map(\.playedTime) == [3.5, nil])
        // AUTOINCREMENT goes on after the highest id the old table used.
        let next = try database.enqueueReport(OutboxEntry(type: "u", channel: "0", sid: nil, history: nil, playedTime: nil))
        #expect(next.id == 10)
        #expect(try database.pendingReports().last?.sid == nil)
    }
}
