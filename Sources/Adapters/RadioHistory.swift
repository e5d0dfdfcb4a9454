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
        let record = ListenRecord(station: station, channel: channel, sid: track.sid, startedAt: date,
                                  liked: track.liked, song: Self.song(track))
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
        ListenEntry(track: Self.track(sid: record.sid, liked: record.liked, record.song), channel: record.channel,
                    startedAt: record.startedAt, listened: record.listened,
                    outcome: ListenOutcome(rawValue: record.outcome) ?? .quit, otherStation: record.station != station)
    }

    /// What the history keeps of a song: the one place a field of `Track` is mapped to the
    /// stored song, and ``track(sid:liked:_:)`` the one place it is mapped back.
    private static func song(_ track: Track) -> ListenSong {
        // JSON holds no infinity or NaN: a length announced as one is not known.
        ListenSong(title: track.title, artist: track.artist, album: track.album, year: track.year, url: track.url,
                   picture: track.picture, sha256: track.sha256, length: track.length.isFinite ? track.length : 0)
    }

    /// The song a row keeps, as a track (the fields not kept read as `Track`'s defaults).
    private static func track(sid: String, liked: Bool, _ song: ListenSong) -> Track {
        Track(sid: sid, title: song.title, artist: song.artist, album: song.album, year: song.year,
              length: song.length, liked: liked, url: song.url, picture: song.picture, sha256: song.sha256)
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
