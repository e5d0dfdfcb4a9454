import Foundation
import GRDB
import Logging
import MusicLibrary
import RadioAPI
import StationStorage
import Synchronization

/// Every listener's ``ListenerProfile``, kept in memory for fast playlists, with its
/// ``ListenerWeights`` over the library served; what reports change goes to the database
/// through a ``FeedbackWriter``, so what the station learned survives restarts without a
/// report waiting for SQLite.
///
/// Listeners are keyed `user:<id>` for a logged-in account, `bid:<id>` for a web browser
/// without one (``key(browserID:)``) and ``anonymous`` for other requests without valid
/// credentials (all such clients share one profile, as they share one identity). A profile
/// is loaded from the database the first time its listener asks; anyone can name a browser
/// id, so at most ``browserCapacity`` browsers' profiles stay in memory.
///
/// Each listener has a lock of its own: the store-wide lock is held only to find a
/// listener, so listeners never wait for each other's reports or draws, and a report
/// changes its listener's profile in place, without copying it.
package final class ListenerProfiles: Sendable {
    /// The key of requests that carry no credentials.
    package static let anonymous = "anonymous"

    /// What one listener's requests read and change, under the listener's own lock.
    package struct State: Sendable {
        /// What the listener taught the station.
        var profile: ListenerProfile
        /// Lists drawn for this listener since the station started: each draw gets its own
        /// random stream (see ``Recommender``).
        var draws: UInt64 = 0
        /// The profile over the library last used, rebuilt when the library changes.
        var weights: ListenerWeights?
        /// Counts the changes of the listener's likes and dislikes, which the sound scores
        /// follow.
        var revision: UInt64 = 0
        /// The songs the sound scores were last taken from.
        var sound: SoundAffinity?
        /// How far the listener's verdicts follow its scores.
        var trust = ProfileTrust()

        /// The weights for `library`, building them when missing or for another library.
        mutating func weights(for library: Library) -> ListenerWeights {
            if let weights, weights.generation == library.facets.generation { return weights }
            let built = ListenerWeights(profile: profile, library: library)
            weights = built
            return built
        }

        /// The sound scores over `space` (measured for `library`), taken again when the likes,
        /// dislikes, library or measured share changed; `nil` when nothing is measured.
        mutating func sound(for library: Library, space: (any SoundSpace)?) -> SoundAffinity? {
            guard let space, space.analysedCount > 0, space.trackCount == library.tracks.count else { return nil }
            let key = SoundAffinity.Key(generation: library.facets.generation, analysed: space.analysedCount,
                                        revision: revision)
            if let sound, sound.key == key { return sound }
            // Only the newest ``SoundAffinity/memory`` of each kind in the library count: a
            // listener with hundreds of hearts, or fifty songs skipped lately, needs no
            // look-up of the older ones.
            var liked: [Int] = []
            for sid in profile.liked.reversed() where liked.count < SoundAffinity.memory {
                if let position = library.position(of: sid) { liked.append(position) }
            }
            var disliked: [Int] = []
            for sid in profile.recent.reversed() where disliked.count < SoundAffinity.memory {
                guard profile.trashed.contains(sid) || (profile.songScores[sid] ?? 0) < 0,
                      let position = library.position(of: sid) else { continue }
                disliked.append(position)
            }
            let built = SoundAffinity(key: key, space: space, liked: liked.reversed(), disliked: disliked.reversed())
            sound = built
            return built
        }
    }

    /// One listener's state and its lock.
    private final class Slot: Sendable {
        let state: Mutex<State>

        init(_ profile: ListenerProfile) {
            state = Mutex(State(profile: profile))
        }
    }

    private let database: StationDatabase
    private let writer: FeedbackWriter
    private let slots = Mutex(Slots())
    /// Every song's rating over all listeners, moved by the reports recorded here.
    package let ratings: SongRatings
    /// Every listener's hearts over the library, for listeners who taught little.
    package let household: HouseholdTaste

    /// Creates the store over a database (reading every song's rating counts, blocking);
    /// write failures are logged to `logger`.
    package init(database: StationDatabase, logger: Logger) throws(StorageError) {
        self.database = database
        writer = FeedbackWriter(database: database, logger: logger)
        ratings = try SongRatings(database: database)
        household = HouseholdTaste(ratings: ratings)
    }

    /// The listener key of an account.
    package static func key(userID: String) -> String { "user:\(userID)" }

    /// The listener key of a browser id (a web-family client without an account).
    package static func key(browserID: String) -> String { browserPrefix + browserID }

    /// How every browser's key starts.
    private static let browserPrefix = "bid:"

    /// The most browsers' profiles kept in memory. Past it, the one loaded longest ago is let
    /// go: its profile is in the database (or on its way there), read again when it asks.
    /// Without the bound, a client naming a new browser id with every request would grow
    /// memory by a profile and its weights over the library each time.
    package static let browserCapacity = 512

    /// Every listener loaded, and the browsers among them in the order they were loaded.
    private struct Slots {
        var byKey: [String: Slot] = [:]
        var browsers: [String] = []
    }

    /// How many browsers' profiles are in memory.
    package var browsersInMemory: Int { slots.withLock { $0.browsers.count } }

    /// A copy of a listener's profile.
    package func profile(for listener: String) async throws(StorageError) -> ListenerProfile {
        try await slot(for: listener).state.withLock { $0.profile }
    }

    /// Runs `body` with the listener's taste over `library` (its sound measured in `sound`)
    /// and the number of this draw, and counts the draw. `body` runs under the listener's
    /// lock, so reports of this listener wait for it: keep it short.
    package func draw<T>(for listener: String, from library: Library, sound: (any SoundSpace)? = nil,
                         _ body: (_ taste: ListenerTaste, _ draw: UInt64) -> T) async throws(StorageError) -> T {
        let household = household.counts(for: library)
        return try await slot(for: listener).state.withLock { state in
            let weights = state.weights(for: library)
            let affinity = state.sound(for: library, space: sound)
            defer { state.draws += 1 }
            let taste = ListenerTaste(profile: state.profile, weights: weights, library: library, sound: affinity,
                                      household: household.isEmpty ? nil : household,
                                      confidence: state.trust.confidence)
            return body(taste, state.draws)
        }
    }

    /// Learns from a report about the track at `position` of `library` and queues what
    /// changed for the database.
    package func record(_ type: ReportType, position: Int, of library: Library, for listener: String)
        async throws(StorageError) {
        let slot = try await slot(for: listener)
        let track = library.tracks[position]
        let now = Date().timeIntervalSince1970
        slot.state.withLock { state in
            let liked = state.profile.likes(track.sid), trashed = state.profile.trashed.contains(track.sid)
            // A heart given twice says nothing new.
            if !(type == .rate && liked) {
                let weights = state.weights(for: library)
                state.trust.learn(type, predicted: weights.score(at: position, library.facets))
            }
            let change = state.profile.apply(type, to: track)
            let likedNow = state.profile.likes(track.sid), trashedNow = state.profile.trashed.contains(track.sid)
            ratings.update(sid: track.sid, liked: (liked, likedNow), trashed: (trashed, trashedNow))
            if liked != likedNow { household.moved(likedNow ? 1 : -1, position: position, of: library) }
            if liked != likedNow || trashed != trashedNow || type == .skip { state.revision += 1 }
            if state.weights?.generation == library.facets.generation {
                state.weights?.update(position: position, of: library, from: state.profile)
            } else {
                state.weights = nil
            }
            // Queued under the listener's lock: its changes reach the writer in the order
            // they were applied.
            writer.enqueue(change, for: listener, at: now)
        }
    }

    /// Returns once every change learned so far is in the database.
    package func flush() async {
        await writer.flush()
    }

    // MARK: - Persistence

    private func slot(for listener: String) async throws(StorageError) -> Slot {
        if let slot = slots.withLock({ $0.byKey[listener] }) { return slot }
        let stored = try await database.read { db in try Self.load(listener, db) }
        // Another request may have loaded it meanwhile; keep the first, it may have learned.
        return slots.withLock { all in
            if let slot = all.byKey[listener] { return slot }
            let slot = Slot(stored)
            all.byKey[listener] = slot
            if listener.hasPrefix(Self.browserPrefix) {
                all.browsers.append(listener)
                if all.browsers.count > Self.browserCapacity { all.byKey[all.browsers.removeFirst()] = nil }
            }
            return slot
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
        var affinities: [TrackFacet: [String: Double]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT facet, value, score FROM affinity WHERE listener = ?",
                                    arguments: [listener]) {
            guard let facet = TrackFacet(rawValue: row["facet"]) else { continue }
            affinities[facet, default: [:]][row["value"]] = row["score"]
        }
        let recent = try String.fetchOne(db, sql: "SELECT recent FROM listener WHERE key = ?", arguments: [listener])
        return ListenerProfile(liked: liked, trashed: trashed, songScores: scores, affinities: affinities,
                               recent: recent.map { $0.split(separator: "|").map(String.init) } ?? [])
    }
}
