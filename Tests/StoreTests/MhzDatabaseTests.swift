import Foundation
import Store
import TestSupport
import Testing

/// mhz's own database: migrations, settings and positions, on disk and in memory.
struct MhzDatabaseTests {
    @Test func settingsAreStoredReplacedAndRemoved() throws {
        let db = try MhzDatabase()
        #expect(try db.setting("radio.last_channel") == nil)
        try db.setSetting("radio.last_channel", "3")
        try db.setSetting("radio.last_channel", "7")
        #expect(try db.setting("radio.last_channel") == "7")
        try db.setSetting("radio.last_channel", nil)
        #expect(try db.setting("radio.last_channel") == nil)
    }

    @Test func positionsSurviveReopeningAndTheNewestIsLast() throws {
        let dir = try TemporaryDirectory(prefix: "mhz-store")
        let path = dir.path("nested/mhz.sqlite")
        do {
            let db = try MhzDatabase(path: path)
            try db.savePosition(PlaybackPosition(sid: "1", channel: "0", position: 10, savedAt: Date(timeIntervalSince1970: 100)))
            try db.savePosition(PlaybackPosition(sid: "2", channel: "0", position: 20, savedAt: Date(timeIntervalSince1970: 200)))
            try db.savePosition(PlaybackPosition(sid: "1", channel: "0", position: 12.5, duration: 30,
                                                 url: "http://s/1.wav", title: "T", artist: "A",
                                                 savedAt: Date(timeIntervalSince1970: 300)))
        }
        let reopened = try MhzDatabase(path: path)
        let last = try #require(try reopened.lastPosition())
        #expect(last == PlaybackPosition(sid: "1", channel: "0", position: 12.5, duration: 30, url: "http://s/1.wav",
                                         title: "T", artist: "A", savedAt: Date(timeIntervalSince1970: 300)))
        #expect(try reopened.position(sid: "2")?.position == 20)
    }

    @Test func aFileThatIsNotADatabaseIsACannotOpenError() throws {
        let dir = try TemporaryDirectory(prefix: "mhz-store")
        let path = dir.path("mhz.sqlite")
        try Data("this is not sqlite, just text that is long enough to have a header".utf8).write(to: path)
        do {
            _ = try MhzDatabase(path: path)
            Issue.record("opened a text file as a database")
        } catch {
            #expect(error == .cannotOpen(path: path.path, reason: "file is not a database"))
        }
    }
}
