import Companions
import Foundation
import Radio

/// The history as `mhz history` prints it without `--json`: a line of text a song (the JSON
/// lines are `EventJSON.song`'s).
enum HistoryText {
    /// One song as a line of text: when (local time), how long (of how long the song is,
    /// when known), how it left, ♥ when liked, then title, artist and album.
    static func line(_ entry: ListenEntry) -> String {
        let song = entry.track
        let listened = minutes(entry.listened)
        var heard = String(repeating: " ", count: max(0, 6 - listened.count)) + listened
        if song.length.isFinite, song.length > 0 { heard += " of " + minutes(song.length) }
        let heart = song.liked ? "♥" : " "
        let outcome = entry.outcome.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
        var words = "\(song.title) — \(song.artist)"
        if !song.album.isEmpty { words += " (\(song.album))" }
        return "\(local(entry.startedAt))  \(heard)  \(outcome) \(heart) \(words)"
    }

    /// `3:40`: whole seconds as minutes and seconds; a number the database holds that is no
    /// time (negative, infinite, NaN, past a year) reads as `0:00`.
    static func minutes(_ seconds: Double) -> String {
        let whole = seconds.isFinite && seconds > 0 && seconds < 31_536_000 ? Int(seconds.rounded()) : 0
        return "\(whole / 60):" + (whole % 60 < 10 ? "0" : "") + "\(whole % 60)"
    }

    /// `2026-11-27 11:52`: the date in local time, to the minute.
    static func local(_ date: Date) -> String {
        EventJSON.strftime(date, "%Y-%m-%d %H:%M", utc: false)
    }
}
