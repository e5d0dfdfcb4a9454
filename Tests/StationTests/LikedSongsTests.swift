import Foundation
import GRDB
import RadioAPI
@testable import Station
import StationStorage
import Testing
import TestSupport

/// `GET /j/app/radio/liked_songs`: a listener's red-heart songs, newest like first, paged by
/// `count` and `exclude`; anonymous and dead tokens refused in Douban's error shape.
@Suite("Liked songs")
struct LikedSongsTests {
    private static let client = "/j/app/radio/liked_songs?app_name=radio_desktop_win&version=100"

    @Test("newest like first with every field, count and exclude page, an unlike removes the song")
    func listing() async throws {
        try await StationFixtures.withDemoStation { station, base in
            let alice = try await StationFixtures.signIn("alice", station: station, base: base)
            let people = "/j/app/radio/people?app_name=radio_android&version=100" + alice
            let sids = station.servedLibrary.tracks.map(\.sid)
            let liked = Array(sids.prefix(4))
            for sid in liked {
                #expect(try await HTTPFetch.get(base, people + "&channel=0&type=r&sid=\(sid)").status == 200)
            }
            let all = try await HTTPFetch.get(base, Self.client + alice + "&count=999")
            #expect(all.status == 200)
            let object = try all.jsonObject()
            #expect(Set(object.keys) == ["r", "songs"])
            #expect((object["r"] as? NSNumber)?.intValue == 0)
            let songs = try #require(object["songs"] as? [[String: Any]])
            #expect(songs.compactMap { $0["sid"] as? String } == liked.reversed())
            for song in songs {
                #expect(Set(song.keys) == ["album", "picture", "ssid", "artist", "url", "company", "title", "length",
                                           "subtype", "public_time", "sid", "aid", "kbps", "albumtitle", "like",
                                           "rating_avg"])
                #expect((song["like"] as? NSNumber)?.intValue == 1)
                // One listener's heart over the prior of 3.5 (two votes): (7 + 5) / 3.
                #expect((song["rating_avg"] as? NSNumber)?.doubleValue == 4.0)
            }
            let page = try await HTTPFetch.get(base, Self.client + alice + "&count=2")
            #expect(try #require(try page.jsonObject()["songs"] as? [[String: Any]]).compactMap { $0["sid"] as? String }
                    == [liked[3], liked[2]])
            let next = try await HTTPFetch.get(base, Self.client + alice + "&count=2&exclude=\(liked[3]),\(liked[2])")
            #expect(try #require(try next.jsonObject()["songs"] as? [[String: Any]]).compactMap { $0["sid"] as? String }
                    == [liked[1], liked[0]])

            #expect(try await HTTPFetch.get(base, people + "&channel=0&type=u&sid=\(liked[1])").status == 200)
            let after = try await HTTPFetch.get(base, Self.client + alice)
            #expect(try #require(try after.jsonObject()["songs"] as? [[String: Any]]).compactMap { $0["sid"] as? String }
                    == [liked[3], liked[2], liked[0]])
        }
    }

    /// A station database migrated up to `version` only, holding the rows `sql` inserts, in a
    /// folder of its own: a database an older mhz left.
    private static func olderDatabase(_ version: String, _ sql: String) throws -> TemporaryDirectory {
        let data = try TemporaryDirectory(prefix: "mhz-station-\(version)")
        let queue = try DatabaseQueue(path: data.path(StationDatabase.fileName).path)
        try StationDatabase.migrator.migrate(queue, upTo: version)
        try queue.write { db in try db.execute(sql: sql) }
        try queue.close()
        return data
    }

    @Test("a database that kept a like beside a later trash opens with the like ended; other likes stay")
    func migrationEndsTrashedLikes() throws {
        let data = try Self.olderDatabase("v4", """
            INSERT INTO song_mark (listener, sid, liked, liked_at, trashed) VALUES
                ('user:1000001', '11', 1, 1.0, 1), ('user:1000001', '12', 1, 2.0, 0), ('anonymous', '11', 0, 0, 1)
            """)
        let database = try StationDatabase(directory: data.url)
        let rows = try database.access { db in
            try Row.fetchAll(db, sql: "SELECT listener, sid, liked, trashed FROM song_mark ORDER BY listener, sid")
                .map { "\($0["listener"] as String) \($0["sid"] as String) \($0["liked"] as Int) \($0["trashed"] as Int)" }
        }
        #expect(rows == ["anonymous 11 0 1", "user:1000001 11 0 1", "user:1000001 12 1 0"])
    }

    @Test("a database of v7 opens with the feedback tables keyed by their primary key alone, every row kept")
    func migrationDropsRowids() throws {
        let data = try Self.olderDatabase("v7", """
            INSERT INTO song_mark (listener, sid, liked, liked_at, trashed, score) VALUES
                ('user:1000001', '11', 1, 1.5, 0, 0.25), ('anonymous', '12', 0, 0, 1, -1.0);
            INSERT INTO affinity (listener, facet, value, score) VALUES
                ('user:1000001', 'artist', 'A', 0.5), ('user:1000001', 'genre', 'rock', -0.75);
            INSERT INTO listener (key, recent) VALUES ('user:1000001', '11|12'), ('anonymous', '12');
            """)
        let database = try StationDatabase(directory: data.url)
        let (kinds, marks, affinities, listeners) = try database.access { db in
            (try Row.fetchAll(db, sql: """
                SELECT name, wr FROM pragma_table_list WHERE name IN ('song_mark', 'affinity', 'listener') ORDER BY name
                """).map { "\($0["name"] as String) \($0["wr"] as Int)" },
             try Row.fetchAll(db, sql: "SELECT * FROM song_mark ORDER BY listener, sid").map { row in
                 "\(row["listener"] as String) \(row["sid"] as String) \(row["liked"] as Int) \(row["liked_at"] as Double) "
                     + "\(row["trashed"] as Int) \(row["score"] as Double)"
             },
             try Row.fetchAll(db, sql: "SELECT * FROM affinity ORDER BY listener, facet, value").map { row in
                 "\(row["listener"] as String) \(row["facet"] as String) \(row["value"] as String) \(row["score"] as Double)"
             },
             try Row.fetchAll(db, sql: "SELECT * FROM listener ORDER BY key").map { "\($0["key"] as String) \($0["recent"] as String)" })
        }
        #expect(kinds == ["affinity 1", "listener 1", "song_mark 1"])
        #expect(marks == ["anonymous 12 0 0.0 1 -1.0", "user:1000001 11 1 1.5 0 0.25"])
        #expect(affinities == ["user:1000001 artist A 0.5", "user:1000001 genre rock -0.75"])
        #expect(listeners == ["anonymous 12", "user:1000001 11|12"])
    }

    @Test("anonymous is need_login, a dead token expired, in Douban's {r, err} shape")
    func refusals() async throws {
        try await StationFixtures.withDemoStation { _, base in
            let anonymous = try await HTTPFetch.get(base, Self.client + "&count=10")
            #expect(anonymous.text == #"{"err":"need_login","r":1}"#)
            let dead = try await HTTPFetch.get(base, Self.client + "&user_id=1000001&expire=1&token=0123456789&count=10")
            #expect(dead.text == #"{"err":"expired","r":1}"#)
        }
    }
}
