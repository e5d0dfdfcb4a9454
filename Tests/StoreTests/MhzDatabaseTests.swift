import Foundation
import GRDB
@testable import Store
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
            try db.savePosition(PositionRecord(sid: "1", channel: "0", position: 10, savedAt: Date(timeIntervalSince1970: 100)))
            try db.savePosition(PositionRecord(sid: "2", channel: "0", position: 20, savedAt: Date(timeIntervalSince1970: 200)))
            try db.savePosition(PositionRecord(sid: "1", channel: "0", position: 12.5, duration: 30,
                                                 url: "http://s/1.wav", title: "T", artist: "A",
                                                 savedAt: Date(timeIntervalSince1970: 300)))
        }
        let reopened = try MhzDatabase(path: path)
        let last = try #require(try reopened.lastPosition())
        #expect(last == PositionRecord(sid: "1", channel: "0", position: 12.5, duration: 30, url: "http://s/1.wav",
                                         title: "T", artist: "A", savedAt: Date(timeIntervalSince1970: 300)))
        #expect(try reopened.position(sid: "2")?.position == 20)
    }
}

/// The stored text of a date is GRDB's own default text, to the millisecond, for any date.
struct DatabaseTimestampTests {
    @Test func theTextIsWhatGRDBsDateFormatterWrites() throws {
        var generator = SystemRandomNumberGenerator()
        let dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1), Date(timeIntervalSince1970: 951_782_400),
                     Date(timeIntervalSince1970: 1_700_000_000.9999), Date(timeIntervalSince1970: -2_208_988_800.5),
                     Date(timeIntervalSince1970: 4_102_444_799.123)]
            // Whole milliseconds plus 0.2 ms: a value within a rounding error of half a
            // millisecond would be rounded one way here and the other by the formatter, which
            // works from the seconds since 2001 (another double).
            + (0..<2000).map { _ in
                Date(timeIntervalSince1970: Double(Int64.random(in: -3_000_000_000_000...5_000_000_000_000, using: &generator)) / 1000
                    + 0.000_2)
            }
        for date in dates {
            #expect(DatabaseTimestamp.text(for: date) == String.fromDatabaseValue(date.databaseValue), "\(date)")
        }
    }

    @Test func theTextReadsBackAsGRDBReadsIt() throws {
        var generator = SystemRandomNumberGenerator()
        let dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1), Date(timeIntervalSince1970: 951_782_400.5),
                     Date(timeIntervalSince1970: -2_208_988_800.5), Date(timeIntervalSince1970: 4_102_444_799.123)]
            + (0..<2000).map { _ in Date(timeIntervalSince1970: Double.random(in: -3e9...5e9, using: &generator)) }
        for date in dates {
            let text = DatabaseTimestamp.text(for: date)
            let ours = try #require(DatabaseTimestamp.date(from: text), "\(text)")
            let grdbs = try #require(Date.fromDatabaseValue(text.databaseValue), "\(text)")
            #expect(abs(ours.timeIntervalSince1970 - grdbs.timeIntervalSince1970) < 0.000_5, "\(text)")
        }
        #expect(DatabaseTimestamp.date(from: "2025-11-24T16:00:00") == Date(timeIntervalSince1970: 1_764_000_000))
        for other in ["", "2025-11-24", "2025-11-24 16:00", "2025-13-01 00:00:00", "2025-11-24 16:00:00.", "2025-11-24 16:00:00Z",
                      "20x5-11-24 16:00:00", "1764000000"] {
            #expect(DatabaseTimestamp.date(from: other) == nil, "\(other)")
        }
    }

    @Test func recordsReadTheirDatesWithoutGRDBsCalendarAndOtherFormsWithIt() throws {
        for strategy in [PositionRecord.databaseDateDecodingStrategy(for: "saved_at"),
                         OutboxEntry.databaseDateDecodingStrategy(for: "created_at")] {
            guard case .custom(let decode) = strategy else { Issue.record("not the custom strategy"); continue }
            #expect(decode("2025-11-24 16:00:00.250".databaseValue) == Date(timeIntervalSince1970: 1_764_000_000.25))
            #expect(decode("2025-11-24".databaseValue) == Date(timeIntervalSince1970: 1_763_942_400))
            #expect(decode(DatabaseValue.null) == nil)
        }
    }

    @Test func recordsWriteTheirDatesWithoutGRDBsFormatter() {
        for strategy in [PositionRecord.databaseDateEncodingStrategy(for: "saved_at"),
                         OutboxEntry.databaseDateEncodingStrategy(for: "created_at")] {
            guard case .custom(let encode) = strategy else { Issue.record("not the custom strategy"); continue }
            let date = Date(timeIntervalSince1970: 1_764_000_000.25)
            #expect(String.fromDatabaseValue(encode(date)!.databaseValue) == "2025-11-24 16:00:00.250")
        }
    }

    @Test func aSavedPositionReadsBackAtTheSameMillisecond() throws {
        let db = try MhzDatabase()
        let saved = Date(timeIntervalSince1970: 1_764_000_000.25)
        try db.savePosition(PositionRecord(sid: "9", channel: "0", position: 1, savedAt: saved))
        #expect(try db.lastPosition()?.savedAt == saved)
    }
}
