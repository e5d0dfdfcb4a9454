import Foundation
import Store
import TestSupport
import Testing

/// The report outbox on disk: its order is the order reports were made, it survives a
/// restart, and a removed report never comes back nor lends its place to a newer one.
struct OutboxStorageTests {
    private static func entry(_ type: String, _ sid: String, at seconds: TimeInterval) -> OutboxEntry {
        OutboxEntry(type: type, channel: "0", sid: sid, history: type == "b" ? "|\(sid):b" : nil,
                    playedTime: Double(seconds) / 10, createdAt: Date(timeIntervalSince1970: seconds))
    }

    @Test func reportsComeBackInTheOrderTheyWereMadeAfterAReopen() throws {
        let dir = try TemporaryDirectory(prefix: "mhz-outbox-store")
        let path = dir.path("mhz.sqlite")
        var stored: [OutboxEntry] = []
        do {
            let db = try MhzDatabase(path: path)
            // Made out of clock order on purpose: the line is the order of enqueueing.
            stored.append(try db.enqueueReport(Self.entry("r", "11", at: 300)))
            stored.append(try db.enqueueReport(Self.entry("b", "12", at: 100)))
            stored.append(try db.enqueueReport(Self.entry("u", "13", at: 200)))
        }
        let ids = stored.compactMap(\.id)
        #expect(ids.count == 3)
        #expect(ids == ids.sorted() && Set(ids).count == 3, "ids follow the order of enqueueing: \(ids)")

        let reopened = try MhzDatabase(path: path)
        #expect(try reopened.pendingReports() == stored)
        #expect(try reopened.pendingReports().map(\.history) == [nil, "|12:b", nil])
        #expect(try reopened.pendingReports().map(\.playedTime) == [30, 10, 20])
    }

    @Test func aRemovedReportIsGoneAndItsIdIsNeverReused() throws {
        let dir = try TemporaryDirectory(prefix: "mhz-outbox-store")
        let path = dir.path("mhz.sqlite")
        let (first, second, third): (OutboxEntry, OutboxEntry, OutboxEntry)
        do {
            let db = try MhzDatabase(path: path)
            first = try db.enqueueReport(Self.entry("r", "21", at: 1))
            second = try db.enqueueReport(Self.entry("s", "22", at: 2))
            third = try db.enqueueReport(Self.entry("e", "23", at: 3))
            try db.removeReport(id: try #require(second.id))
            #expect(try db.pendingReports().map(\.sid) == ["21", "23"])
            // The newest is delivered too; a report made after it must still line up behind
            // everything that is left, so its id may not take the freed place.
            try db.removeReport(id: try #require(third.id))
        }
        let reopened = try MhzDatabase(path: path)
        let later = try reopened.enqueueReport(Self.entry("u", "24", at: 4))
        #expect(try #require(later.id) > (try #require(third.id)))
        #expect(try reopened.pendingReports().map(\.sid) == ["21", "24"])
        #expect(try reopened.pendingReports().first == first)
        // Removing what is not there (delivered twice by a racing retry) is harmless.
        try reopened.removeReport(id: try #require(second.id))
        #expect(try reopened.pendingReports().count == 2)
    }
}
