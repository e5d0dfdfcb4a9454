import Scrobble
import Store

/// The scrobble courier's ``ScrobbleOutboxStore`` port over mhz's database: actions as
/// `scrobble_outbox` rows and back, `StoreError` as the courier's failure.
public struct ScrobbleDatabase: ScrobbleOutboxStore {
    /// The database the rows are kept in.
    public let database: MhzDatabase

    /// The outbox in `database`.
    public init(database: MhzDatabase) {
        self.database = database
    }

    /// Stores the action as a row.
    public func keepScrobble(_ action: ScrobbleAction, for service: ScrobbleService) throws(ScrobbleFailure) -> Int64 {
        let song = action.song
        do throws(StoreError) {
            return try database.enqueueScrobble(ScrobbleRecord(
                service: service.rawValue, kind: action.kind, artist: song.artist, title: song.title, album: song.album,
                duration: song.duration, startedAt: song.startedAt))
        } catch {
            throw Self.failure(error)
        }
    }

    /// The service's rows, oldest first; a row of a kind this version does not know is
    /// left where it is (a later version may send it).
    public func waitingScrobbles(for service: ScrobbleService) throws(ScrobbleFailure) -> [PendingScrobble] {
        let rows: [ScrobbleRecord]
        do throws(StoreError) { rows = try database.pendingScrobbles(service: service.rawValue) } catch { throw Self.failure(error) }
        return rows.compactMap { row in
            let song = PlayedSong(artist: row.artist, title: row.title, album: row.album, duration: row.duration,
                                  startedAt: row.startedAt)
            guard let id = row.id, let action = ScrobbleAction(kind: row.kind, song: song) else { return nil }
            return PendingScrobble(id: id, service: service, action: action)
        }
    }

    /// Deletes the rows.
    public func forgetScrobbles(ids: [Int64]) throws(ScrobbleFailure) {
        do throws(StoreError) { try database.removeScrobbles(ids: ids) } catch { throw Self.failure(error) }
    }

    /// How many scrobbles wait, by service.
    public func counts() throws(StoreError) -> [ScrobbleService: Int] {
        var counts: [ScrobbleService: Int] = [:]
        for row in try database.pendingScrobbles() {
            guard let service = ScrobbleService(rawValue: row.service) else { continue }
            counts[service, default: 0] += 1
        }
        return counts
    }

    private static func failure(_ error: StoreError) -> ScrobbleFailure {
        switch error {
        case .diskFull(let words): .storage(words, diskFull: true)
        case .operationFailed(let words), .migrationFailed(let words): .storage(words, diskFull: false)
        case .cannotOpen(let path, let reason), .damaged(let path, let reason): .storage("\(path): \(reason)", diskFull: false)
        }
    }
}
