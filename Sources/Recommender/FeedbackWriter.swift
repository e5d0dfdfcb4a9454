import Foundation
import GRDB
import Logging
import StationStorage
import Synchronization

/// Writes what reports taught the station to its database, off the request path: a
/// report's answer does not wait for SQLite. Changes are written by one task, in the
/// order they were queued, in batches of whatever accumulated while the previous batch
/// was written, one transaction per batch with cached statements.
///
/// ``flush()`` waits until everything queued before it is written; ``Station/stop()``
/// calls it, so a clean stop loses nothing. A crash may lose the last few milliseconds of
/// reports (the database already accepts losing its last transactions on power loss, see
/// ``StationDatabase``).
package final class FeedbackWriter: Sendable {
    /// One queued piece of work.
    private enum Item: Sendable {
        /// A change to store.
        case change(ProfileChange, listener: String, at: Double)
        /// Resumed once everything queued before it is written.
        case barrier(CheckedContinuation<Void, Never>)
    }

    /// The queue, in a box of its own that the writing task shares.
    private final class Queue: Sendable {
        let items = Mutex<[Item]>([])
    }

    private let queue = Queue()
    private let wake: AsyncStream<Void>.Continuation

    /// Starts the writing task over `database`; failures are logged to `logger`.
    package init(database: StationDatabase, logger: Logger) {
        let (signals, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.wake = wake
        // The task holds the queue, not the writer: the writer's deinit ends the stream, and
        // the task then writes what is left and ends.
        Task.detached { [queue] in
            for await _ in signals {
                let batch = queue.items.withLock { items in
                    defer { items.removeAll(keepingCapacity: true) }
                    return items
                }
                await Self.write(batch, database, logger)
            }
        }
    }

    deinit {
        wake.finish()
    }

    /// Queues a change of `listener`'s profile, made at `time` (seconds since 1970).
    ///
    /// Callers queue one listener's changes in the order they applied them: a change
    /// carries the song's state as it is now, so a later change must be written later.
    package func enqueue(_ change: ProfileChange, for listener: String, at time: Double) {
        queue.items.withLock { $0.append(.change(change, listener: listener, at: time)) }
        wake.yield()
    }

    /// Returns once every change queued before the call is in the database (or failed and
    /// was logged).
    package func flush() async {
        await withCheckedContinuation { continuation in
            queue.items.withLock { $0.append(.barrier(continuation)) }
            wake.yield()
        }
    }

    private static func write(_ batch: [Item], _ database: StationDatabase, _ logger: Logger) async {
        var changes: [(ProfileChange, String, Double)] = []
        var barriers: [CheckedContinuation<Void, Never>] = []
        for item in batch {
            switch item {
            case .change(let change, let listener, let time): changes.append((change, listener, time))
            case .barrier(let continuation): barriers.append(continuation)
            }
        }
        if !changes.isEmpty {
            let rows = changes
            do {
                try await database.update { db in
                    for (change, listener, time) in rows { try store(change, for: listener, at: time, db) }
                }
            } catch {
                logger.error("feedback not saved", metadata: ["count": "\(rows.count)", "error": "\(error)"])
            }
        }
        for barrier in barriers { barrier.resume() }
    }

    /// Writes one change: the song's mark, the facet scores and (when it moved) the recent
    /// list as they are now.
    package static func store(_ change: ProfileChange, for listener: String, at time: Double, _ db: Database) throws {
        // liked_at orders the red-heart channel: set when the heart is given, kept after.
        try db.cachedStatement(sql: """
            INSERT INTO song_mark (listener, sid, liked, liked_at, trashed, score) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(listener, sid) DO UPDATE SET
                liked_at = CASE WHEN excluded.liked = 1 AND liked = 0 THEN excluded.liked_at ELSE liked_at END,
                liked = excluded.liked, trashed = excluded.trashed, score = excluded.score
            """).execute(arguments: [listener, change.sid, change.liked, time, change.trashed, change.songScore])
        for facet in change.facets {
            try db.cachedStatement(sql: """
                INSERT INTO affinity (listener, facet, value, score) VALUES (?, ?, ?, ?)
                ON CONFLICT(listener, facet, value) DO UPDATE SET score = excluded.score
                """).execute(arguments: [listener, facet.facet.rawValue, facet.value, facet.score])
        }
        // A heart leaves the recent list as it was: half the reports of a listener who likes
        // as often as skips write no listener row.
        guard let recent = change.recent else { return }
        try db.cachedStatement(sql: """
            INSERT INTO listener (key, recent) VALUES (?, ?)
            ON CONFLICT(key) DO UPDATE SET recent = excluded.recent
            """).execute(arguments: [listener, recent.joined(separator: "|")])
    }
}
