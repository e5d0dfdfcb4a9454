import Foundation
import Radio
import Store

/// The radio's ``ListeningLog`` port over mhz's database: each song started is a `listen`
/// row of this station, and the rows read back as the radio's entries (of every station).
public struct RadioHistory: ListeningLog {
    /// The database the rows are kept in.
    public let database: MhzDatabase
    /// The station the songs come from (its URL, or `embedded`).
    public let station: String

    /// The history of `station`'s songs, kept in `database`.
    public init(database: MhzDatabase, station: String) {
        self.database = database
        self.station = station
    }

    /// Inserts the song's row, reading as `quit` until it leaves.
    public func began(_ track: Track, channel: String, at date: Date) throws(StorageFailure) -> Int64 {
        let record = ListenRecord(station: station, channel: channel, sid: track.sid, title: track.title,
                                  artist: track.artist, album: track.album, startedAt: date, liked: track.liked,
                                  url: track.url, year: track.year, picture: track.picture, sha256: track.sha256)
        return try Self.translated { () throws(StoreError) in try database.insertListen(record) }
    }

    /// Updates the song's row as it leaves.
    public func left(key: Int64, listened: Double, outcome: ListenOutcome, liked: Bool) throws(StorageFailure) {
        try Self.translated { () throws(StoreError) in
            try database.finishListen(id: key, listened: listened, outcome: outcome.rawValue, liked: liked)
        }
    }

    /// The rows, newest first.
    public func recent(limit: Int?) throws(StorageFailure) -> [ListenEntry] {
        try Self.translated { () throws(StoreError) in try database.listens(limit: limit) }.map { entry($0) }
    }

    /// Marks the song's rows of this station liked or not.
    public func markLiked(sid: String, _ liked: Bool) throws(StorageFailure) {
        try Self.translated { () throws(StoreError) in try database.markListensLiked(station: station, sid: sid, liked: liked) }
    }

    /// The entry a row holds; an outcome this mhz does not know reads as `quit`.
    public func entry(_ record: ListenRecord) -> ListenEntry {
        ListenEntry(sid: record.sid, title: record.title, artist: record.artist, album: record.album,
                    channel: record.channel, startedAt: record.startedAt, listened: record.listened,
                    outcome: ListenOutcome(rawValue: record.outcome) ?? .quit, liked: record.liked, url: record.url,
                    year: record.year, picture: record.picture, sha256: record.sha256,
                    otherStation: record.station != station)
    }

    /// A database call's failure in the radio's terms.
    private static func translated<T>(_ call: () throws(StoreError) -> T) throws(StorageFailure) -> T {
        do throws(StoreError) {
            return try call()
        } catch {
            switch error {
            case .diskFull(let reason): throw .diskFull(reason)
            case .cannotOpen(let path, let reason), .damaged(let path, let reason): throw .failed("\(path): \(reason)")
            case .migrationFailed(let reason), .operationFailed(let reason): throw .failed(reason)
            }
        }
    }
}
