import Radio
import Store

/// The radio's ``LyricOffsetStore`` over mhz's database: nudges kept in whole milliseconds,
/// per station (the key mhz's runtime keeps sessions under) and song.
public struct LyricNudges: LyricOffsetStore {
    /// The database the nudges are kept in.
    public let database: MhzDatabase
    /// The station's key, as sessions and trashed songs are kept.
    public let station: String

    /// Nudges of `station`'s songs, kept in `database`.
    public init(database: MhzDatabase, station: String) {
        self.database = database
        self.station = station
    }

    public func lyricNudge(sid: String) throws(StorageFailure) -> Double {
        do throws(StoreError) {
            return Double(try database.lyricOffset(station: station, sid: sid)) / 1000
        } catch {
            throw Self.failure(error)
        }
    }

    public func setLyricNudge(_ seconds: Double, sid: String) throws(StorageFailure) {
        do throws(StoreError) {
            // A nudge past what whole milliseconds hold (or not a number) is kept as none:
            // Int(_:) of such a Double traps.
            try database.setLyricOffset(Int(exactly: (seconds * 1000).rounded()) ?? 0, station: station, sid: sid)
        } catch {
            throw Self.failure(error)
        }
    }

    private static func failure(_ error: StoreError) -> StorageFailure {
        switch error {
        case .diskFull(let reason): .diskFull(reason)
        case .cannotOpen(let path, let reason), .damaged(let path, let reason): .failed("\(path): \(reason)")
        case .migrationFailed(let reason), .operationFailed(let reason): .failed(reason)
        }
    }
}
