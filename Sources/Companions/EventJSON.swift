import Foundation
import Radio

/// Headless output: one JSON object per line per event (`--headless`, docs/guide/desktop.md). Keys
/// are sorted so lines are stable for scripts and tests.
///
/// The line is written here rather than by Foundation's `JSONSerialization`, whose sorted
/// keys compare with a locale-aware collator: loading ICU's collation data for that cost
/// about 5 MiB of memory and a few milliseconds before the first event of every run.
public enum EventJSON {
    /// The JSON line for a radio event (without the newline): `event` names it (its
    /// ``EventName``), the rest are its fields. Scripts rely on `playing`'s `sid title artist album channel like
    /// length` (and `reason`, why the station chose the song, when it said), on `channel`'s
    /// `id name`, and on `status` and `error`. Its words (a `status_text`, an error's
    /// `message`) are `words`'s: user-facing text is made by the front end.
    public static func line(_ event: RadioEvent, words: EventWords) -> String {
        let name = EventName(event)
        var object: [String: EventValue]
        switch event {
        case .playing(let track, let channel):
            object = trackFields(track)
            object["channel"] = .string(channel.id)
            object["like"] = .bool(track.liked)
            object["length"] = .number(track.length)
            if let reason = track.reason { object["reason"] = .string(reason) }
        case .livePlaying(let track, let channel, let behind):
            // The same line as the radio's `playing`, marked live, with how far behind.
            object = trackFields(track)
            object["channel"] = .string(channel.id)
            object["like"] = .bool(track.liked)
            object["length"] = .number(track.length)
            object["live"] = .bool(true)
            object["behind"] = .number((behind * 10).rounded() / 10)
        case .voted(let track, let type, let tally):
            object = trackFields(track)
            object["type"] = .string(type.rawValue)
            object["on_air"] = .bool(tally.onAir)
            object["votes"] = .number(Double(tally.votes))
            object["listeners"] = .number(Double(tally.listeners))
            object["ending"] = .bool(tally.ending)
            if tally.ended { object["ended"] = .bool(true) }
        case .paused(let track), .resumed(let track): object = track.map { trackFields($0) } ?? [:]
        case .ended(let track), .skipped(let track), .liked(let track), .unliked(let track), .trashed(let track),
             .reconnected(let track):
            object = trackFields(track)
        case .reconnecting(let track, let attempt, let most):
            object = trackFields(track)
            object["attempt"] = .number(Double(attempt))
            object["of"] = .number(Double(most))
        case .channel(let channel):
            object = ["id": .string(channel.id), "name": .string(channel.name)]
        case .goingLive(let channel):
            object = ["id": .string(channel.id), "name": .string(channel.name)]
        case .goingRadio(let id):
            object = [:]
            if let id { object["id"] = .string(id) }
        case .status(let status):
            object = ["position": .number((status.position * 10).rounded() / 10),
                      "volume": .number(Double(status.volume)), "paused": .bool(status.paused),
                      "queue": .number(Double(status.queueLength))]
            if let channel = status.channel {
                object["channel"] = .string(channel.id)
                object["channel_name"] = .string(channel.name)
            }
            if let track = status.track {
                object["sid"] = .string(track.sid)
                object["title"] = .string(track.title)
            }
            if let duration = status.effectiveDuration { object["duration"] = .number(duration) }
            if let live = status.live {
                object["live"] = .bool(true)
                object["behind"] = .number((live.behind * 10).rounded() / 10)
            }
            if status.pendingReports > 0 { object["pending_reports"] = .number(Double(status.pendingReports)) }
            if let reconnecting = status.reconnecting {
                object["reconnecting"] = .object(["attempt": .number(Double(reconnecting.attempt)),
                                                  "of": .number(Double(reconnecting.maxAttempts))])
            }
            let words = words.status(status)
            if !words.isEmpty { object["status_text"] = .string(words) }
        case .source(let source):
            switch source {
            case .station: object = ["source": .string("station")]
            case .downloads: object = ["source": .string("offline")]
            case .fallback(let channel):
                object = ["source": .string("fallback"), "channel": .string(channel.id)]
            }
            let words = words.source(source)
            if !words.isEmpty { object["status_text"] = .string(words) }
        case .error(let error):
            object = ["message": .string(words.error(error))]
        case .sleep(let seconds):
            object = ["seconds": seconds.map { .number($0) } ?? .null]
        case .fading(let volume):
            object = ["volume": .number(Double(volume))]
        case .history(let entries):
            object = ["songs": .array(entries.map { .object(songFields($0)) })]
        }
        object["event"] = .string(name.rawValue)
        return serialize(object)
    }

    /// An `{"event":"error","message":…}` line for a failure outside the radio (a command
    /// line that was not understood).
    public static func error(_ message: String) -> String {
        serialize(["event": .string(EventName.error.rawValue), "message": .string(message)])
    }

    /// The fields every line about a song has (its `event` is set by ``line(_:words:)``),
    /// the history's songs' lines too.
    static func trackFields(_ track: Track) -> [String: EventValue] {
        ["sid": .string(track.sid), "title": .string(track.title),
         "artist": .string(track.artist), "album": .string(track.album)]
    }

    /// One JSON object, keys in ascending order (also for the download lines).
    public static func serialize(_ object: [String: EventValue]) -> String {
        var out = ""
        EventValue.object(object).write(to: &out)
        return out
    }
}

/// A value of a headless event line.
public enum EventValue: Sendable, Equatable {
    /// A JSON string.
    case string(String)
    /// A JSON number: whole numbers are written without a fraction (`30`), others in their
    /// shortest form that reads back the same (`12.3`).
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// An object, written with its keys in ascending order.
    case object([String: EventValue])
    /// `null`: a field every line of its kind has, without a value this time.
    case null
    /// An array, in order.
    case array([EventValue])

    /// Appends the JSON text of the value: strings escaped as JSON requires (quote,
    /// backslash, control characters) and nothing more, so `/` and non-ASCII text stay as
    /// they are.
    public func write(to out: inout String) {
        switch self {
        case .string(let text): Self.write(text, to: &out)
        case .number(let value):
            if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
                out += String(Int64(value))
            } else if value.isFinite {
                out += "\(value)"
            } else {
                out += "null"
            }
        case .bool(let flag): out += flag ? "true" : "false"
        case .null: out += "null"
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                Self.write(key, to: &out)
                out += ":"
                fields[key]!.write(to: &out)
            }
            out += "}"
        }
    }

    private static func write(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
