import Foundation
import GRDB
@testable import Recommender
@testable import StationStorage
import Synchronization
import Testing
import TestSupport

/// What reports teach reaches the database by the report's own request, in the order it
/// was taught; a request that finds another writing queues its change for that one.
@Suite("Feedback writer")
struct FeedbackWriterTests {
    /// Holds the first commit that changed `song_mark` until the test lets it go, telling
    /// the test when it is held.
    private final class FirstCommitHold: TransactionObserver, Sendable {
        private let pending = Mutex<(changed: Bool, commits: Int)>((false, 0))
        /// Signalled once the first commit is held.
        let held = DispatchSemaphore(value: 0)
        /// Signalled by the test to let it go.
        let release = DispatchSemaphore(value: 0)

        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == "song_mark" }
        func databaseDidChange(with event: DatabaseEvent) { pending.withLock { $0.changed = true } }
        func databaseDidCommit(_ db: Database) {
            let first = pending.withLock { state -> Bool in
                defer { state.changed = false }
                guard state.changed else { return false }
                state.commits += 1
                return state.commits == 1
            }
            if first {
                held.signal()
                release.wait()
            }
        }
        func databaseDidRollback(_ db: Database) { pending.withLock { $0.changed = false } }
    }

    private static func marks(_ database: StationDatabase) throws -> [(sid: String, liked: Bool, score: Double)] {
        try database.access { db in
            try Row.fetchAll(db, sql: "SELECT sid, liked, score FROM song_mark WHERE listener = 'user:7' ORDER BY sid")
                .map { ($0["sid"] as String, $0["liked"] as Bool, $0["score"] as Double) }
        }
    }

    @Test("a change is in the database when its request's write returns; a flush writes every queued change, a song's last change kept")
    func writesBeforeReturning() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-feedback")
        let database = try StationDatabase(directory: data.url)
        let writer = FeedbackWriter(database: database, logger: .init(label: "test"))

        writer.enqueue(ProfileChange(sid: "999", liked: true, songScore: 1), for: "user:7", at: 1_700_000_000)
        #expect(try Self.marks(database).isEmpty)
        writer.writeQueued()
        #expect(try Self.marks(database).map(\.sid) == ["999"])

        for index in 0..<200 {
            writer.enqueue(ProfileChange(sid: "\(1_000 + index % 150)", liked: index >= 150, songScore: Double(index)),
                           for: "user:7", at: 1_700_000_000 + Double(index))
        }
        await writer.flush()
        let rows = try Self.marks(database).filter { $0.sid != "999" }
        #expect(rows.count == 150)
        // Songs named twice keep their later change: written in the order queued.
        #expect(rows.first.map { $0.sid == "1000" && $0.liked && $0.score == 150 } == true)
        #expect(rows.last.map { $0.sid == "1149" && !$0.liked && $0.score == 149 } == true)
    }

    @Test("while one request writes, another queues its changes and returns at once; the writing one writes them before it returns",
          .timeLimit(.minutes(1)))
    func oneWritesForAll() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-feedback")
        let database = try StationDatabase(directory: data.url)
        let hold = FirstCommitHold()
        database.pool.add(transactionObserver: hold, extent: .databaseLifetime)
        let writer = FeedbackWriter(database: database, logger: .init(label: "test"))

        let first = Task.detached {
            try await offPool {
                writer.enqueue(ProfileChange(sid: "1", songScore: -1), for: "user:7", at: 1_700_000_000)
                writer.writeQueued()
            }
        }
        // The first request's transaction is committed and held: it is still writing.
        try await offPool { hold.held.wait() }
        for index in 2...11 {
            writer.enqueue(ProfileChange(sid: "\(index)", songScore: -1), for: "user:7", at: 1_700_000_000)
            writer.writeQueued()
        }
        #expect(try Self.marks(database).map(\.sid) == ["1"])
        hold.release.signal()
        try await first.value
        #expect(try Self.marks(database).map(\.sid).sorted() == (1...11).map(String.init).sorted())
    }
}
