import Companions
import Foundation
import Radio

/// The history as `mhz history` prints it without `--json`: a line of text a song (the JSON
/// lines are `EventJSON.song`'s).
enum HistoryText {
    /// One song as a line of text: when (local time), how long, how it left, ♥ when liked,
    /// then title, artist and album.
    static func line(_ entry: ListenEntry) -> String {
        let listened = Int(entry.listened.rounded())
        let length = "\(listened / 60):" + (listened % 60 < 10 ? "0" : "") + "\(listened % 60)"
        let heart = entry.track.liked ? "♥" : " "
        let outcome = entry.outcome.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
        let song = entry.track
        var words = "\(song.title) — \(song.artist)"
        if !song.album.isEmpty { words += " (\(song.album))" }
        let padded = String(repeating: " ", count: max(0, 6 - length.count)) + length
        return "\(local(entry.startedAt))  \(padded)  \(outcome) \(heart) \(words)"
    }

    /// `2026-11-27 11:52`: the date in local time, to the minute.
    static func local(_ date: Date) -> String {
        EventJSON.strftime(date, "%Y-%m-%d %H:%M", utc: false)
    }
}
