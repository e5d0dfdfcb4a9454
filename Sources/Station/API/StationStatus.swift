import Foundation
import MhzVersion

/// What `GET /status` answers: what the station serves and how far its work has come, for
/// its operator, and nothing about any listener (no names, no addresses, no songs heard).
///
/// Answered to loopback clients, and to others only when the station is told so
/// (``StationConfiguration/statusForEveryone``, `[station] metrics = true`).
struct StationStatus: Sendable, Equatable {
    /// A channel on the air.
    struct Live: Sendable, Equatable {
        /// Its id.
        var channel: String
        /// How many listen now (ids that fetched a playlist lately, accounts that spoke).
        var listeners: Int
        /// When its run began (ms since the epoch).
        var onAirSince: Int64
    }

    /// mhz's version (``MhzVersion/number``).
    var version = MhzVersion.number
    /// Tracks served.
    var tracks: Int
    /// Tracks whose sound has been measured.
    var analysed: Int
    /// Files the analysis could not read.
    var unreadable: Int
    /// Whole seconds since the station started.
    var uptime: Int
    /// The channels on the air, by id.
    var live: [Live]

    /// The answer's body: one JSON object, keys sorted, `on_air_since` in ISO 8601 (UTC).
    var json: Data {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let channels: [[String: Any]] = live.map { channel in
            ["channel": channel.channel, "listeners": channel.listeners,
             "on_air_since": formatter.string(from: Date(timeIntervalSince1970: Double(channel.onAirSince) / 1000))]
        }
        let object: [String: Any] = ["version": version, "tracks": tracks, "analysed": analysed, "unreadable": unreadable,
                                     "uptime": uptime, "live": channels]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }

    /// Whether a request from `address` may have the status (and the metrics): a loopback
    /// client always (the operator on the machine), another only when `everyone`.
    static func isAllowed(address: String?, everyone: Bool) -> Bool {
        everyone || address.map(LoopbackHost.contains) == true
    }
}
