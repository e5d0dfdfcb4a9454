import Adapters
import Foundation
import Testing
@testable import Radio
import RadioAPI
import Store

/// The radio's store port over mhz's real database: every field of a position reaches its
/// row and comes back, and reports come back as the reports they were.
struct RadioDatabaseTests {
    @Test func aPositionKeepsEveryFieldThroughItsRow() throws {
        let database = try MhzDatabase()
        let store = RadioDatabase(database)
        let saved = PlaybackPosition(sid: "7", channel: "3", position: 61.5, duration: 240, url: "http://s/7.mp3",
                                     title: "Title", artist: "Artist", album: "Album",
                                     savedAt: Date(timeIntervalSince1970: 1_800_000_000.25))
        try store.savePosition(saved)
        #expect(try store.lastPosition() == saved)
        #expect(try store.position(sid: "7") == saved)
        #expect(try store.position(sid: "8") == nil)
        #expect(try database.position(sid: "7") == PositionRecord(
            sid: "7", channel: "3", position: 61.5, duration: 240, url: "http://s/7.mp3", title: "Title",
            artist: "Artist", album: "Album", savedAt: Date(timeIntervalSince1970: 1_800_000_000.25)))
    }

    @Test func aReportComesBackAsItWasKept() throws {
        let store = RadioDatabase(try MhzDatabase())
        let report = Report(type: .ban, channel: "2", sid: "9", history: ReportHistory.parse("|8:r|9:b"), playedTime: 12.5)
        let id = try store.keepReport(report)
        #expect(try store.waitingReports() == [.readable(id: id, report)])
        try store.forgetReport(id: id)
        #expect(try store.waitingReports().isEmpty)
    }
}
