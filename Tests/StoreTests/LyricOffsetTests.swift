import Foundation
import GRDB
@testable import Store
import Testing
import TestSupport

/// The listener's lyric nudges, kept per station and song across restarts.
struct LyricOffsetTests {
    @Test func aNudgeIsKeptPerStationAndSongAcrossAReopenAndZeroForgetsIt() throws {
        let folder = try TemporaryDirectory(prefix: "mhz-lyric-offsets")
        let path = folder.path("mhz.sqlite")
        do {
            let database = try MhzDatabase(path: path)
            #expect(try database.lyricOffset(station: "embedded", sid: "7") == 0)
            try database.setLyricOffset(500, station: "embedded", sid: "7")
            try database.setLyricOffset(-1000, station: "http://a", sid: "7")
            try database.setLyricOffset(1500, station: "embedded", sid: "7")
        }
        let reopened = try MhzDatabase(path: path)
        #expect(try reopened.lyricOffset(station: "embedded", sid: "7") == 1500)
        #expect(try reopened.lyricOffset(station: "http://a", sid: "7") == -1000)
        #expect(try reopened.lyricOffset(station: "embedded", sid: "8") == 0)
        try reopened.setLyricOffset(0, station: "embedded", sid: "7")
        let rows = try DatabaseQueue(path: path.path).read { db in
            try Row.fetchAll(db, sql: "SELECT station, sid, offset_ms FROM lyric_offset").map { "\($0[0] as String) \($0[1] as String) \($0[2] as Int)" }
        }
        #expect(rows == ["http://a 7 -1000"])
    }

    /// v10-lyric-offsets is registered after v11-scrobble-outbox (which shipped first): a
    /// database an mhz without lyrics left at v11 gains the table on its next open, its
    /// scrobble rows kept.
    @Test func aDatabaseAtV11WithoutTheLyricTableGainsIt() throws {
        let folder = try TemporaryDirectory(prefix: "mhz-lyric-offsets")
        let path = folder.path("mhz.sqlite")
        _ = try MhzDatabase(path: path)
        // Made into the database main's mhz leaves: every migration to v11, no lyric table.
        try DatabaseQueue(path: path.path).write { db in
            try db.execute(sql: """
                DROP TABLE lyric_offset;
                DELETE FROM grdb_migrations WHERE identifier = 'v10-lyric-offsets';
                INSERT INTO scrobble_outbox (service, kind, artist, title, album, duration, started_at, created_at)
                    VALUES ('listenbrainz', 'listen', 'A', 'T', '', 200, 1700000000, '2026-11-20 10:00:00.000');
                """)
        }
        let reopened = try MhzDatabase(path: path)
        try reopened.setLyricOffset(-500, station: "embedded", sid: "7")
        #expect(try reopened.lyricOffset(station: "embedded", sid: "7") == -500)
        let (applied, scrobbles) = try DatabaseQueue(path: path.path).read { db in
            (try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations WHERE identifier LIKE 'v1_-%' ORDER BY identifier"),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM scrobble_outbox"))
        }
        #expect(applied == ["v10-lyric-offsets", "v11-scrobble-outbox", "v12-listen-song"])
        #expect(scrobbles == 1)
    }
}
