import Foundation
import GRDB
import Store
import TestSupport
import Testing

/// `v12-listen-song` moves the song's fields of every `listen` row (a column each, as
/// `v9-history` made them) into the one JSON `song` column: each row reads back as it was
/// written, whichever station it came from and whatever its outcome says.
struct ListenSongMigrationTests {
    /// `listen` as `v9-history` created it (GRDB's SQL for that migration's table).
    private static let v9Table = """
        CREATE TABLE "listen" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "station" TEXT NOT NULL,
            "channel" TEXT NOT NULL, "sid" TEXT NOT NULL, "title" TEXT NOT NULL, "artist" TEXT NOT NULL,
            "album" TEXT NOT NULL, "started_at" DATETIME NOT NULL, "listened" DOUBLE NOT NULL,
            "outcome" TEXT NOT NULL, "liked" BOOLEAN NOT NULL, "url" TEXT NOT NULL DEFAULT '',
            "year" TEXT NOT NULL DEFAULT '', "picture" TEXT NOT NULL DEFAULT '', "sha256" TEXT);
        CREATE INDEX "index_listen_on_started_at" ON "listen"("started_at");
        """

    /// Rows as an mhz before v12 wrote them: every field set; another station's song with
    /// an outcome this mhz does not know, quotes and a backslash in its title, no hash; one
    /// inserted without the download columns (their defaults).
    private static let v9Rows = """
        INSERT INTO listen VALUES (3, 'embedded', '-3', '41', '夜に駆ける', 'YOASOBI', 'THE BOOK',
            '2026-11-27 10:52:03.250', 61.5, 'ended', 1, 'http://station/media/41.mp3', '2019',
            'http://station/covers/41.jpg', 'c0ffee');
        INSERT INTO listen VALUES (5, 'http://other.example/', '1', '7', 'Say "hi" \\ now', '', '',
            '2026-11-27 11:00:00.000', 0, 'rewound', 0, '', '', '', NULL);
        INSERT INTO listen (id, station, channel, sid, title, artist, album, started_at, listened, outcome, liked)
            VALUES (4, 'embedded', '0', '42', 'T', 'A', 'B', '2026-11-27 10:55:00.000', 3, 'quit', 0);
        """

    private static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

    @Test func everyRowOfTheOldTableReadsBackAsItWasWritten() throws {
        let dir = try TemporaryDirectory(prefix: "mhz-listen-song")
        defer { dir.remove() }
        let path = dir.path("mhz.sqlite")
        do {
            // Every other migration is the same in both mhz versions: the database this one
            // creates, with v9's table and rows in place of v12's, is the one the earlier left.
            _ = try MhzDatabase(path: path)
            let old = try DatabaseQueue(path: path.path)
            try old.write { db in
                try db.execute(sql: "DROP TABLE listen; DELETE FROM grdb_migrations WHERE identifier = 'v12-listen-song'")
                try db.execute(sql: Self.v9Table)
                try db.execute(sql: Self.v9Rows)
            }
        }
        let database = try MhzDatabase(path: path)
        let expected = [
            ListenRecord(id: 5, station: "http://other.example/", channel: "1", sid: "7",
                         startedAt: Self.date(1_795_777_200), listened: 0, outcome: "rewound", liked: false,
                         song: ListenSong(title: #"Say "hi" \ now"#, artist: "")),
            ListenRecord(id: 4, station: "embedded", channel: "0", sid: "42", startedAt: Self.date(1_795_776_900),
                         listened: 3, outcome: "quit", liked: false,
                         song: ListenSong(title: "T", artist: "A", album: "B")),
            ListenRecord(id: 3, station: "embedded", channel: "-3", sid: "41", startedAt: Self.date(1_795_776_723.25),
                         listened: 61.5, outcome: "ended", liked: true,
                         song: ListenSong(title: "夜に駆ける", artist: "YOASOBI", album: "THE BOOK", year: "2019",
                                          url: "http://station/media/41.mp3", picture: "http://station/covers/41.jpg",
                                          sha256: "c0ffee")),
        ]
        #expect(try database.listens(limit: nil) == expected)
        // The rows go on as before: liked by sid, finished by id, numbered after the last.
        try database.markListensLiked(station: "embedded", sid: "42", liked: true)
        try database.finishListen(id: 3, listened: 62, outcome: "skipped", liked: false)
        let next = try database.insertListen(ListenRecord(station: "embedded", channel: "-3", sid: "43",
                                                          startedAt: Self.date(1_795_778_000), song: ListenSong(title: "N", artist: "M")))
        #expect(next == 6)
        let after = try database.listens(limit: nil)
        #expect(after.map(\.id) == [6, 5, 4, 3])
        #expect(after.map(\.liked) == [false, false, true, false])
        #expect(after.last?.outcome == "skipped" && after.last?.listened == 62 && after.last?.song == expected[2].song)
        // The index the newest-first reads use is still there.
        let check = try DatabaseQueue(path: path.path)
        let indexes = try check.read { db in try db.indexes(on: "listen").map(\.name) }
        #expect(indexes.contains("index_listen_on_started_at"))
    }

    /// A song field kept from some version on is missing from the rows written before it:
    /// they read with the field's default, and no field they have is lost.
    @Test func aSongWrittenWithFewerFieldsReadsWithTheDefaults() throws {
        let dir = try TemporaryDirectory(prefix: "mhz-listen-song")
        defer { dir.remove() }
        let path = dir.path("mhz.sqlite")
        let database = try MhzDatabase(path: path)
        let id = try database.insertListen(ListenRecord(station: "embedded", channel: "0", sid: "1",
                                                        startedAt: Self.date(1000), song: ListenSong(title: "T", artist: "A")))
        let raw = try DatabaseQueue(path: path.path)
        try raw.write { db in
            try db.execute(sql: #"UPDATE listen SET song = '{"title":"Old","artist":"X"}' WHERE id = ?"#, arguments: [id])
        }
        #expect(try database.listens(limit: nil).map(\.song) == [ListenSong(title: "Old", artist: "X")])
    }
}
