import Foundation
import GRDB
@testable import Recommender
@testable import StationStorage
import Testing
import TestSupport

/// What reports teach reaches the database off the request path, in the order it was
/// taught: by itself soon after, all of it by a flush, and what is left when the writer
/// goes.
@Suite("Feedback writer")
struct FeedbackWriterTests {
    /// Tells each commit: the writer's are the only ones, since the database is opened (and
    /// migrated) before the observer is added. Commits, not changes: SQLite reports no
    /// row change of a WITHOUT ROWID table such as `song_mark` to GRDB's observers.
    private final class Commits: TransactionObserver, Sendable {
        let stream: AsyncStream<Void>
        private let continuation: AsyncStream<Void>.Continuation

        init() {
            (stream, continuation) = AsyncStream<Void>.makeStream()
        }

        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) { continuation.yield() }
        func databaseDidRollback(_ db: Database) {}
    }

    private static func marks(_ database: StationDatabase) throws -> [(sid: String, liked: Bool, score: Double)] {
        try database.access { db in
            try Row.fetchAll(db, sql: "SELECT sid, liked, score FROM song_mark WHERE listener = 'user:7' ORDER BY sid")
                .map { ($0["sid"] as String, $0["liked"] as Bool, $0["score"] as Double) }
        }
    }

    /// A database in a folder of its own, and its commits to `song_mark` told.
    private static func observedDatabase() throws -> (folder: TemporaryDirectory, database: StationDatabase, commits: Commits) {
        let folder = try TemporaryDirectory(prefix: "mhz-feedback")
        let database = try StationDatabase(directory: folder.url)
        let commits = Commits()
        database.pool.add(transactionObserver: commits, extent: .databaseLifetime)
        return (folder, database, commits)
    }

    @Test("a change is written without a flush; a flush finds every change written, a song's last change kept", .timeLimit(.minutes(1)))
    func writesBehind() async throws {
        let (folder, database, commits) = try Self.observedDatabase()
        defer { withExtendedLifetime(folder) {} }
        let writer = FeedbackWriter(database: database, logger: .init(label: "test"))
        var committed = commits.stream.makeAsyncIterator()

        writer.enqueue(ProfileChange(sid: "999", liked: true, songScore: 1), for: "user:7", at: 1_700_000_000)
        // The writer's own commit, not a flush, puts it in the database.
        _ = await committed.next()
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

    @Test("a change with the recent list writes the listener's row; one without leaves the row as it was",
          .timeLimit(.minutes(1)))
    func recentWrittenOnlyWhenItMoved() async throws {
        let (folder, database, _) = try Self.observedDatabase()
        defer { withExtendedLifetime(folder) {} }
        let writer = FeedbackWriter(database: database, logger: .init(label: "test"))
        let recent = { try database.access { db in try String.fetchAll(db, sql: "SELECT recent FROM listener WHERE key = 'user:7'") } }

        writer.enqueue(ProfileChange(sid: "10", liked: true), for: "user:7", at: 1_700_000_000)
        await writer.flush()
        #expect(try Self.marks(database).map(\.sid) == ["10"])
        #expect(try recent().isEmpty, "a heart wrote a recent list")

        writer.enqueue(ProfileChange(sid: "11", songScore: -1, recent: ["10", "11"]), for: "user:7", at: 1_700_000_001)
        writer.enqueue(ProfileChange(sid: "12", liked: true), for: "user:7", at: 1_700_000_002)
        await writer.flush()
        #expect(try Self.marks(database).map(\.sid) == ["10", "11", "12"])
        #expect(try recent() == ["10|11"])
    }

    @Test("what is queued when the writer goes is still written", .timeLimit(.minutes(1)))
    func writesTheRestAtTheEnd() async throws {
        let (folder, database, commits) = try Self.observedDatabase()
        defer { withExtendedLifetime(folder) {} }
        var committed = commits.stream.makeAsyncIterator()
        do {
            let writer = FeedbackWriter(database: database, logger: .init(label: "test"))
            for index in 0..<50 {
                writer.enqueue(ProfileChange(sid: "\(2_000 + index)", songScore: -1), for: "user:7", at: 1_700_000_000)
            }
        }
        // The writer is gone; its task writes the 50 in one or more commits, then ends.
        while try Self.marks(database).count < 50 { _ = await committed.next() }
        #expect(try Self.marks(database).map(\.sid) == (0..<50).map { "\(2_000 + $0)" })
    }
}
