import GRDB
import StationStorage
import Synchronization

/// Every song's average rating over all listeners, for the `rating_avg` field clients show
/// beside a song (Douban's were 4.3–4.5 on a scale of 5).
///
/// A red heart counts as a 5, a trash as a 1; each song starts from ``prior`` votes of
/// ``priorRating``, so one listener's heart does not make a song perfect:
/// `(prior·priorRating + 5·likes + 1·trashes) / (prior + likes + trashes)`.
///
/// The counts live in memory (read once from `song_mark` when the station starts, then
/// moved by each report), so a playlist answer costs no database read for them.
package final class SongRatings: Sendable {
    /// The rating a song has before anyone rated it.
    package static let priorRating = 3.5
    /// How many votes the prior weighs.
    package static let prior = 2.0

    private struct Tally: Sendable {
        var likes = 0
        var trashes = 0
    }

    private let tallies: Mutex<[String: Tally]>

    /// Reads the counts of every song from the database.
    package init(database: StationDatabase) throws(StorageError) {
        let rows = try database.access { db in
            try Row.fetchAll(db, sql: "SELECT sid, SUM(liked) AS likes, SUM(trashed) AS trashes FROM song_mark GROUP BY sid")
        }
        var tallies: [String: Tally] = [:]
        for row in rows {
            tallies[row["sid"]] = Tally(likes: row["likes"], trashes: row["trashes"])
        }
        self.tallies = Mutex(tallies)
    }

    /// The rating of a song, rounded to 5 decimals as Douban's were (`4.31568`).
    package func rating(of sid: String) -> Double {
        let tally = tallies.withLock { $0[sid] } ?? Tally()
        let votes = Double(tally.likes + tally.trashes)
        let sum = Self.prior * Self.priorRating + 5 * Double(tally.likes) + Double(tally.trashes)
        return ((sum / (Self.prior + votes)) * 100_000).rounded() / 100_000
    }

    /// Every song's heart count, by song id (songs never liked may be left out).
    package func likeCounts() -> [String: Int] {
        tallies.withLock { $0.mapValues(\.likes) }
    }

    /// Moves the counts of a song by one listener's change of mind.
    ///
    /// - Parameters:
    ///   - liked: the heart before and after the report.
    ///   - trashed: the trash mark before and after the report.
    func update(sid: String, liked: (before: Bool, after: Bool), trashed: (before: Bool, after: Bool)) {
        guard liked.before != liked.after || trashed.before != trashed.after else { return }
        tallies.withLock { tallies in
            var tally = tallies[sid] ?? Tally()
            tally.likes += (liked.after ? 1 : 0) - (liked.before ? 1 : 0)
            tally.trashes += (trashed.after ? 1 : 0) - (trashed.before ? 1 : 0)
            tallies[sid] = tally
        }
    }
}
