import Foundation
import GRDB
@testable import Store
import TestSupport
import Testing

/// Downloads and trashed songs in mhz's database: typed rows that survive reopening.
struct DownloadStorageTests {
    @Test func aDownloadRowRoundTripsWithEveryFieldAndItsStateChanges() throws {
        let dir = try TemporaryDirectory(prefix: "mhz-store-downloads")
        let path = dir.path("mhz.sqlite")
        let made = Date(timeIntervalSince1970: 1_700_000_000.25)
        var stored: DownloadRecord
        do {
            let db = try MhzDatabase(path: path)
            stored = try db.insertDownload(DownloadRecord(
                url: "http://mr1.example/p1.mp3", title: "晴天", artist: "周杰伦", album: "叶惠美", year: "2003",
                coverURL: "http://img.example/1.jpg", sid: "1", channel: "-3", station: "embedded",
                sha256: String(repeating: "a", count: 64), path: "/music/周杰伦 - 晴天.mp3", createdAt: made))
            #expect(stored.id == 1)
            stored.state = .failed
            stored.reason = #"{"diskFull":{"path":"\/music"}}"#
            stored.bytes = 4096
            stored.total = 8192
            try db.updateDownload(stored)
            _ = try db.insertDownload(DownloadRecord(url: "http://x/2.mp3", title: "2", artist: "", path: "/music/2.mp3"))
        }
        let reopened = try MhzDatabase(path: path)
        let rows = try reopened.downloads()
        #expect(rows.map(\.id) == [1, 2])
        #expect(rows[0] == stored)
        #expect(rows[0].createdAt == made && rows[0].updatedAt == made)
        #expect(try reopened.download(id: 2)?.state == .queued)
        try reopened.deleteDownload(id: 1)
        #expect(try reopened.downloads().map(\.id) == [2])
        #expect(try reopened.download(id: 1) == nil)
    }

    @Test func trashedSongsAreKeptPerStationOnce() throws {
        let db = try MhzDatabase()
        try db.markTrashed(station: "embedded", sid: "7")
        try db.markTrashed(station: "embedded", sid: "7")
        try db.markTrashed(station: "http://douban.example", sid: "7")
        #expect(try db.trashedSongs() == [TrashedSong(station: "embedded", sid: "7"),
                                          TrashedSong(station: "http://douban.example", sid: "7")])
    }

    /// A row this mhz cannot read (a state of a newer mhz's) is passed over, not a failure
    /// of the whole list: the downloads beside it still start and are listed.
    @Test func aRowThatCannotBeReadIsPassedOverAndTheOthersAreListed() throws {
        let dir = try TemporaryDirectory(prefix: "mhz-store-unreadable")
        let path = dir.path("mhz.sqlite")
        let db = try MhzDatabase(path: path)
        for n in 1...3 {
            _ = try db.insertDownload(DownloadRecord(url: "http://x/\(n).mp3", title: "\(n)", artist: "", path: "/music/\(n).mp3"))
        }
        let raw = try DatabaseQueue(path: path.path)
        try raw.write { try $0.execute(sql: "UPDATE download SET state = 'teleporting' WHERE id = 2") }
        #expect(try db.downloads().map(\.id) == [1, 3])
        #expect(try db.downloads().map(\.state) == [.queued, .queued])
        let kept = try raw.read { try String.fetchOne($0, sql: "SELECT state FROM download WHERE id = 2") }
        #expect(kept == "teleporting")
    }

    /// A row's dates as GRDB reads any number (seconds since 1970, here past what 64 bits of
    /// milliseconds hold, as a hand-edited file may have them) are written back as the
    /// nearest the stored text holds, not trapped on.
    @Test func aDatePastTheStoredYearsIsWrittenAtTheirEnd() throws {
        let dir = try TemporaryDirectory(prefix: "mhz-store-dates")
        let path = dir.path("mhz.sqlite")
        let db = try MhzDatabase(path: path)
        _ = try db.insertDownload(DownloadRecord(url: "http://x/1.mp3", title: "1", artist: "", path: "/music/1.mp3"))
        let raw = try DatabaseQueue(path: path.path)
        try raw.write { try $0.execute(sql: "UPDATE download SET created_at = 1e300, updated_at = -1e300") }
        var row = try #require(try db.downloads().first)
        row.state = .failed
        try db.updateDownload(row)
        let stored = try raw.read { try Row.fetchOne($0, sql: "SELECT created_at, updated_at, state FROM download") }
        #expect(stored?["created_at"] == "9999-12-31 23:59:59.999")
        #expect(stored?["updated_at"] == "0001-01-01 00:00:00.000")
        #expect(stored?["state"] == "failed")
        #expect(DatabaseTimestamp.text(for: Date(timeIntervalSince1970: .nan)) == "1970-01-01 00:00:00.000")
        #expect(DatabaseTimestamp.text(for: Date(timeIntervalSince1970: -.infinity)) == "0001-01-01 00:00:00.000")
    }
}
