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
}
