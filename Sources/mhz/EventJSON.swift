import Foundation
import Radio
import TerminalUI

/// Headless output: one JSON object per line per event (the README's `--headless`). Keys are sorted so
/// lines are stable for scripts and tests.
enum EventJSON {
    /// The JSON line for a radio event (without the newline): `event` names it, the rest
    /// are its fields. Scripts rely on `playing`'s `sid title artist album channel like
    /// length`, on `channel`'s `id name`, and on `status` and `error`.
    static func line(_ event: RadioEvent) -> String {
        var object: [String: Any]
        switch event {
        case .playing(let track, let channel):
            object = trackFields("playing", track)
            object["channel"] = channel.id
            object["like"] = track.liked
            object["length"] = track.length
        case .paused(let track): object = track.map { trackFields("paused", $0) } ?? ["event": "paused"]
        case .resumed(let track): object = track.map { trackFields("resumed", $0) } ?? ["event": "resumed"]
        case .ended(let track): object = trackFields("ended", track)
        case .skipped(let track): object = trackFields("skipped", track)
        case .liked(let track): object = trackFields("liked", track)
        case .unliked(let track): object = trackFields("unliked", track)
        case .trashed(let track): object = trackFields("trashed", track)
        case .reconnecting(let track, let attempt, let most):
            object = trackFields("reconnecting", track)
            object["attempt"] = attempt
            object["of"] = most
        case .reconnected(let track): object = trackFields("reconnected", track)
        case .channel(let channel): object = ["event": "channel", "id": channel.id, "name": channel.name]
        case .status(let status):
            object = ["event": "status", "position": (status.position * 10).rounded() / 10, "volume": status.volume,
                      "paused": status.paused, "queue": status.queueLength]
            if let channel = status.channel { object["channel"] = channel.id; object["channel_name"] = channel.name }
            if let track = status.track { object["sid"] = track.sid; object["title"] = track.title }
            if let duration = status.effectiveDuration { object["duration"] = duration }
            if status.pendingReports > 0 { object["pending_reports"] = status.pendingReports }
            if let reconnecting = status.reconnecting {
                object["reconnecting"] = ["attempt": reconnecting.attempt, "of": reconnecting.maxAttempts]
            }
            let words = NowPlayingView.statusText(status)
            if !words.isEmpty { object["status_text"] = words }
        case .error(let error):
            object = ["event": "error", "message": ErrorText.describe(error)]
        }
        return serialize(object)
    }

    /// An `{"event":"error","message":…}` line for a failure outside the radio (a command
    /// line that was not understood).
    static func error(_ message: String) -> String { serialize(["event": "error", "message": message]) }

    private static func trackFields(_ name: String, _ track: Track) -> [String: Any] {
        ["event": name, "sid": track.sid, "title": track.title, "artist": track.artist, "album": track.album]
    }

    private static func serialize(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return #"{"event":"error","message":"event could not be encoded"}"# }
        return String(decoding: data, as: UTF8.self)
    }
}
