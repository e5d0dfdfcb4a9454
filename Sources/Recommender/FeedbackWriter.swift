import Foundation
import GRDB
import Logging
import StationStorage
import Synchronization

/// Writes what reports taught the station to its database, in the order it was taught:
/// each report's change is queued (under its listener's lock, so one listener's changes keep
/// their order), then written by the report's own request, on its own thread, before it is
/// answered, unless another request is writing already: that one writes whatever it finds
/// queued, batch after batch, before it returns. One transaction per batch, with cached
/// statements.
///
/// Why the request writes: an answered report is then in the database (a `kill -9` a moment
/// later keeps it), and a report costs no wake-up of another thread. A writing task or
/// thread woken for every report cost a tenth of a busy station's CPU per answer, most of it
/// the wake-up itself; the transaction costs a report tenths of a millisecond.
///
/// What a stalled disk holds up: the one request that is writing (its answer waits), not
/// the others, which queue their changes in memory and go on.
///
/// ``flush()`` returns once everything queued before it is written; ``Station/stop()`` calls
/// it. A crash may lose only changes still queued behind a write in progress.
package final class FeedbackWriter: Sendable {
    /// One queued piece of work.
    private enum Item: Sendable {
        /// A change to store.
        case change(ProfileChange, listener: String, at: Double)
        /// Resumed once everything queued before it is written.
        case barrier(CheckedContinuation<Void, Never>)
    }

    /// What waits to be written, and whether a caller is writing it now.
    private let state = Mutex<(items: [Item], writing: Bool)>(([], false))
    private let database: StationDatabase
    private let logger: Logger

    /// A writer over `database`; failures are logged to `logger`.
    package init(database: StationDatabase, logger: Logger) {
        self.database = database
        self.logger = logger
    }

    /// Queues a change of `listener`'s profile, made at `time` (seconds since 1970), for
    /// ``writeQueued()``.
    ///
    /// Callers queue one listener's changes in the order they applied them: a change
    /// carries the song's state as it is now, so a later change must be written later.
    package func enqueue(_ change: ProfileChange, for listener: String, at time: Double) {
        state.withLock { $0.items.append(.change(change, listener: listener, at: time)) }
    }

    /// Writes what is queued, on the calling thread, blocking it; returns at once when
    /// another caller is writing (that caller writes this too before it returns).
    package func writeQueued() {
        let mine = state.withLock { state in
            guard !state.writing, !state.items.isEmpty else { return false }
            state.writing = true
            return true
        }
        if mine { writeUntilEmpty() }
    }

    /// Returns once every change queued before the call is in the database (or failed and
    /// was logged).
    package func flush() async {
        await withCheckedContinuation { continuation in
            state.withLock { $0.items.append(.barrier(continuation)) }
            writeQueued()
        }
    }

    /// Writes batch after batch until the queue is empty, then lets the next caller write.
    private func writeUntilEmpty() {
        while true {
            let batch = state.withLock { state -> [Item]? in
                guard !state.items.isEmpty else {
                    state.writing = false
                    return nil
                }
                defer { state.items.removeAll(keepingCapacity: true) }
                return state.items
            }
            guard let batch else { return }
            write(batch)
        }
    }

    private func write(_ batch: [Item]) {
        var changes: [(ProfileChange, String, Double)] = []
        var barriers: [CheckedContinuation<Void, Never>] = []
        for item in batch {
            switch item {
            case .change(let change, let listener, let time): changes.append((change, listener, time))
            case .barrier(let continuation): barriers.append(continuation)
            }
        }
        if !changes.isEmpty {
            do throws(StorageError) {
                try database.write { db in
                    for (change, listener, time) in changes { try Self.store(change, for: listener, at: time, db) }
                }
            } catch {
                logger.error("feedback not saved", metadata: ["count": "\(changes.count)", "error": "\(error)"])
            }
        }
        for barrier in barriers { barrier.resume() }
    }

    /// Writes one change: the song's mark, the facet scores and the recent list as they are now.
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
        try db.cachedStatement(sql: """
            INSERT INTO listener (key, recent) VALUES (?, ?)
            ON CONFLICT(key) DO UPDATE SET recent = excluded.recent
            """).execute(arguments: [listener, change.recent.joined(separator: "|")])
    }
}
