import Foundation
import GRDB

/// The table of the listener's lyric nudges (migration `v10-lyric-offsets`): how many
/// milliseconds earlier (positive) or later (negative) a song's lyric lines are shown than
/// their time tags say, per station and song.
public enum LyricOffsetRecord {
    /// The table's name.
    public static let databaseTableName = "lyric_offset"
}

extension MhzDatabase {
    /// The nudge kept for `sid` of `station` (the station's URL, or `embedded`), in
    /// milliseconds; 0 when none was kept.
    public func lyricOffset(station: String, sid: String) throws(StoreError) -> Int {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT offset_ms FROM lyric_offset WHERE station = ? AND sid = ?",
                             arguments: [station, sid]) ?? 0
        }
    }

    /// Keeps the nudge for `sid` of `station`; 0 forgets it.
    public func setLyricOffset(_ milliseconds: Int, station: String, sid: String, at date: Date = Date()) throws(StoreError) {
        try write { db in
            if milliseconds == 0 {
                try db.execute(sql: "DELETE FROM lyric_offset WHERE station = ? AND sid = ?", arguments: [station, sid])
            } else {
                try db.execute(sql: """
                    INSERT INTO lyric_offset(station, sid, offset_ms, updated_at) VALUES(?, ?, ?, ?)
                    ON CONFLICT(station, sid) DO UPDATE SET offset_ms = excluded.offset_ms, updated_at = excluded.updated_at
                    """, arguments: [station, sid, milliseconds, DatabaseTimestamp.text(for: date)])
            }
        }
    }
}
