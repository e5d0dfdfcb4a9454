import Foundation
import GRDB
import RadioAPI
import Synchronization

/// Every listener's ``ListenerProfile``, kept in memory for fast playlists and written
/// through to the database on every report, so what the station learned survives restarts.
///
/// Listeners are keyed `user:<id>` for a logged-in account and ``anonymous`` for requests
/// without valid credentials (all anonymous clients share one profile, as they share one
/// identity). A profile is loaded from the database the first time its listener asks.
final class ListenerProfiles: Sendable {
    /// The key of requests that carry no credentials.
    static let anonymous = "anonymous"

    private struct Entry: Sendable {
        var profile: ListenerProfile
        /// Lists drawn for this listener since the station started: each draw gets its own
        /// random stream (see ``Recommender``).
        var draws: UInt64 = 0
    }

    private let database: StationDatabase
    private let entries = Mutex<[String: Entry]>([:])

    /// Creates the store over a database.
    init(database: StationDatabase) {
        self.database = database
    }

    /// The listener key of an account.
    static func key(userID: String) -> String { "user:\(userID)" }

    /// A copy of a listener's profile.
    func profile(for listener: String) async throws(StationError) -> ListenerProfile {
        try await ensureLoaded(listener)
        return entries.withLock { $0[listener]?.profile } ?? ListenerProfile()
    }

    /// A copy of the profile and the number of the draw about to be made, counting it.
    func beginDraw(for listener: String) async throws(StationError) -> (profile: ListenerProfile, draw: UInt64) {
        try await ensureLoaded(listener)
        return entries.withLock { all in
            var entry = all[listener] ?? Entry(profile: ListenerProfile())
            defer {
                entry.draws += 1
                all[listener] = entry
            }
            return (entry.profile, entry.draws)
        }
    }

    /// Learns from a report and stores what changed.
    func record(_ type: ReportType, track: LibraryTrack, for listener: String) async throws(StationError) {
        try await ensureLoaded(listener)
        let change = entries.withLock { all in
            var entry = all[listener] ?? Entry(profile: ListenerProfile())
            let change = entry.profile.apply(type, to: track)
            all[listener] = entry
            return change
        }
        let now = Date().timeIntervalSince1970
        try await database.update { db in try Self.store(change, for: listener, at: now, db) }
    }

    // MARK: - Persistence

    private func ensureLoaded(_ listener: String) async throws(StationError) {
        if entries.withLock({ $0[listener] != nil }) { return }
        let stored = try await database.read { db in try Self.load(listener, db) }
        entries.withLock { all in
            // Another request may have loaded it meanwhile; keep the first, it may have learned.
            if all[listener] == nil { all[listener] = Entry(profile: stored) }
        }
    }

    private static func load(_ listener: String, _ db: Database) throws -> ListenerProfile {
        var liked: [String] = []
        var trashed = Set<String>()
        var scores: [String: Double] = [:]
        let marks = try Row.fetchAll(db, sql: """
            SELECT sid, liked, trashed, score FROM song_mark WHERE listener = ? ORDER BY liked_at, sid
            """, arguments: [listener])
        for row in marks {
            let sid: String = row["sid"]
            if row["liked"] as Bool { liked.append(sid) }
            if row["trashed"] as Bool { trashed.insert(sid) }
            let score: Double = row["score"]
            if score != 0 { scores[sid] = score }
        }
        var affinities: [ListenerProfile.Facet: [String: Double]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT facet, value, score FROM affinity WHERE listener = ?",
                                    arguments: [listener]) {
            guard let facet = ListenerProfile.Facet(rawValue: row["facet"]) else { continue }
            affinities[facet, default: [:]][row["value"]] = row["score"]
        }
        let recent = try String.fetchOne(db, sql: "SELECT recent FROM listener WHERE key = ?", arguments: [listener])
        return ListenerProfile(liked: liked, trashed: trashed, songScores: scores, affinities: affinities,
                               recent: recent.map { $0.split(separator: "|").map(String.init) } ?? [])
    }

    private static func store(_ change: ProfileChange, for listener: String, at now: Double, _ db: Database) throws {
        // liked_at orders the red-heart channel: set when the heart is given, kept after.
        try db.execute(sql: """
            INSERT INTO song_mark (listener, sid, liked, liked_at, trashed, score) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(listener, sid) DO UPDATE SET
                liked_at = CASE WHEN excluded.liked = 1 AND liked = 0 THEN excluded.liked_at ELSE liked_at END,
                liked = excluded.liked, trashed = excluded.trashed, score = excluded.score
            """, arguments: [listener, change.sid, change.liked, now, change.trashed, change.songScore])
        for delta in change.facets {
            try db.execute(sql: """
                INSERT INTO affinity (listener, facet, value, score) VALUES (?, ?, ?, ?)
                ON CONFLICT(listener, facet, value) DO UPDATE SET score = score + excluded.score
                """, arguments: [listener, delta.facet.rawValue, delta.value, delta.delta])
        }
        try db.execute(sql: """
            INSERT INTO listener (key, recent) VALUES (?, ?)
            ON CONFLICT(key) DO UPDATE SET recent = excluded.recent
            """, arguments: [listener, change.recent.joined(separator: "|")])
    }
}
