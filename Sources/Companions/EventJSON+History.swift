import Foundation
import Radio

extension EventJSON {
    /// The JSON fields of one song of the history (the `history` event's `songs`, `mhz
    /// history --json`, `mhz ctl history`): the song's fields as every line about a song has
    /// them (``trackFields(_:)``: `sid title artist album`), then `length` (seconds, as the
    /// `playing` line has it; 0 when not known) and `channel started_at listened outcome
    /// liked`, `started_at` in RFC 3339 (UTC), `listened` in whole seconds.
    public static func songFields(_ entry: ListenEntry) -> [String: EventValue] {
        var fields = trackFields(entry.track)
        fields["length"] = .number(entry.track.length)
        fields["channel"] = .string(entry.channel)
        fields["started_at"] = .string(rfc3339(entry.startedAt))
        fields["listened"] = .number(entry.listened.rounded())
        fields["outcome"] = .string(entry.outcome.rawValue)
        fields["liked"] = .bool(entry.track.liked)
        return fields
    }

    /// One song of the history as a JSON line (without the newline).
    public static func song(_ entry: ListenEntry) -> String {
        serialize(songFields(entry))
    }

    /// `2026-11-27T10:52:03Z`: the date in UTC, to the second.
    public static func rfc3339(_ date: Date) -> String {
        strftime(date, "%Y-%m-%dT%H:%M:%SZ", utc: true)
    }

    /// strftime(3) of `date` with `pattern`, in UTC or local time (without Foundation's
    /// formatters, which load ICU's data).
    public static func strftime(_ date: Date, _ pattern: String, utc: Bool) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        if utc { gmtime_r(&seconds, &parts) } else { localtime_r(&seconds, &parts) }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = Foundation.strftime(&buffer, buffer.count, pattern, &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
