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
}
