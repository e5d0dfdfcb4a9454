import Foundation
import GRDB
@testable import Recommender
@testable import StationStorage
import Testing
import TestSupport

/// What reports teach reaches the database off the request path, gathered into few
/// transactions, and all of it by a flush.
@Suite("Feedback writer")
struct FeedbackWriterTests {
    /// Counts the transactions that changed `song_mark`.
    private final class CommitCounter: TransactionObserver, @unchecked Sendable {
        private let lock = NSLock()
        private var pending = false
        private var commits = 0

        var count: Int { lock.withLock { commits } }

        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == "song_mark" }
        func databaseDidChange(with event: DatabaseEvent) { lock.withLock { pending = true } }
        func databaseDidCommit(_ db: Database) {
            lock.withLock {
                if pending { commits += 1 }
                pending = false
            }
        }
        func databaseDidRollback(_ db: Database) { lock.withLock { pending = false } }
    }

    @Test("changes arriving a millisecond apart are gathered into a few transactions; a flush finds every one written, the last state of a song kept")
    func gathersChanges() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-feedback")
        let database = try StationDatabase(directory: data.url)
        let counter = CommitCounter()
        database.pool.add(transactionObserver: counter, extent: .databaseLifetime)
        let writer = FeedbackWriter(database: database, logger: .init(label: "test"))
        // 24 reports as a busy station receives them: one at a time, a transaction apiece
        // if nothing gathered them (each is written long before the next arrives).
        for index in 0..<24 {
            writer.enqueue(ProfileChange(sid: "\(1_000 + index % 20)", liked: index >= 20, songScore: Double(index)),
                           for: "user:7", at: 1_700_000_000 + Double(index))
            try await Task.sleep(for: .milliseconds(1))
        }
        await writer.flush()
        let rows = try database.access { db in
            try Row.fetchAll(db, sql: "SELECT sid, liked, score FROM song_mark WHERE listener = 'user:7' ORDER BY sid")
                .map { ($0["sid"] as String, $0["liked"] as Bool, $0["score"] as Double) }
        }
        #expect(rows.count == 20)
        // Songs named twice keep their later change.
        #expect(rows.first.map { $0.0 == "1000" && $0.1 && $0.2 == 20 } == true)
        #expect(rows.last.map { $0.0 == "1019" && !$0.1 && $0.2 == 19 } == true)
        // About 30 ms of reports fall in one gathering of 100 ms; a machine that stretches each
        // millisecond's pause past 40 ms would split them further, still not one apiece.
        #expect(counter.count >= 1 && counter.count <= 12, "\(counter.count) transactions for 24 changes")
    }
}
