import Foundation
import Radio

/// The history as `mhz history` prints it: a JSON object a line (`--json`, `mhz ctl
/// history`), or a line of text a song.
enum HistoryText {
    /// The JSON fields of one song: `sid title artist album channel started_at listened
    /// outcome liked`, `started_at` in RFC 3339 (UTC), `listened` in whole seconds.
    static func fields(_ entry: ListenEntry) -> [String: EventValue] {
        ["sid": .string(entry.sid), "title": .string(entry.title), "artist": .string(entry.artist),
         "album": .string(entry.album), "channel": .string(entry.channel),
         "started_at": .string(rfc3339(entry.startedAt)), "listened": .number(entry.listened.rounded()),
         "outcome": .string(entry.outcome.rawValue), "liked": .bool(entry.liked)]
    }

    /// One song as a JSON line.
    static func json(_ entry: ListenEntry) -> String {
        EventJSON.serialize(fields(entry))
    }

    /// One song as a line of text: when (local time), how long, how it left, ♥ when liked,
    /// then title, artist and album.
    static func line(_ entry: ListenEntry) -> String {
        let listened = Int(entry.listened.rounded())
        let length = "\(listened / 60):" + (listened % 60 < 10 ? "0" : "") + "\(listened % 60)"
        let heart = entry.liked ? "♥" : " "
        let outcome = entry.outcome.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
        var words = "\(entry.title) — \(entry.artist)"
        if !entry.album.isEmpty { words += " (\(entry.album))" }
        let padded = String(repeating: " ", count: max(0, 6 - length.count)) + length
        return "\(local(entry.startedAt))  \(padded)  \(outcome) \(heart) \(words)"
    }

    /// `2026-11-27T10:52:03Z`: the date in UTC, to the second.
    static func rfc3339(_ date: Date) -> String {
        format(date, "%Y-%m-%dT%H:%M:%SZ", utc: true)
    }

    /// `2026-11-27 11:52`: the date in local time, to the minute.
    static func local(_ date: Date) -> String {
        format(date, "%Y-%m-%d %H:%M", utc: false)
    }

    /// strftime(3) of `date` (without Foundation's formatters, which load ICU's data).
    private static func format(_ date: Date, _ pattern: String, utc: Bool) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        if utc { gmtime_r(&seconds, &parts) } else { localtime_r(&seconds, &parts) }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, pattern, &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
