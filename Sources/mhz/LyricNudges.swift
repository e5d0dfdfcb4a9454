import Radio
import Store

/// The radio's ``LyricOffsetStore`` over mhz's database: nudges kept in whole milliseconds,
/// per station (``RadioRuntime/sessionKey``) and song.
struct LyricNudges: LyricOffsetStore {
    let database: MhzDatabase
    /// The station's key, as sessions and trashed songs are kept.
    let station: String

    func lyricNudge(sid: String) throws(StorageFailure) -> Double {
        do throws(StoreError) {
            return Double(try database.lyricOffset(station: station, sid: sid)) / 1000
        } catch {
            throw Self.failure(error)
        }
    }

    func setLyricNudge(_ seconds: Double, sid: String) throws(StorageFailure) {
        do throws(StoreError) {
            try database.setLyricOffset(Int((seconds * 1000).rounded()), station: station, sid: sid)
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
