import Foundation

/// A song as the station's list carries it (docs/PROTOCOL.md §4.2): what the simulated
/// client needs to report on it, and to find its truth in the library.
package struct ServedSong: Sendable, Equatable {
    /// The song id every report names.
    package var sid: String
    /// `title`.
    package var title: String
    /// `artist`.
    package var artist: String
    /// `length`, seconds (the played time of a song played to its end).
    package var length: Double
    /// `like`: whether it carries the listener's red heart.
    package var liked: Bool
    /// `reason`, when the station says why it chose the song (an extension the issue asks for).
    package var reason: String?

    /// A song.
    package init(sid: String, title: String, artist: String, length: Double = 0, liked: Bool = false, reason: String? = nil) {
        self.sid = sid
        self.title = title
        self.artist = artist
        self.length = length
        self.liked = liked
        self.reason = reason
    }
}

/// An answer of `/j/app/radio/people`, decoded as leniently as mhz decodes it (numbers as
/// numbers or strings, `like` in its three forms).
package enum PeopleAnswer {
    /// The songs of `body`: `[]` for the acknowledgement of `e` (`{"r":0}`).
    /// - Throws: ``TasteError/refused(_:)`` for `r` other than 0, ``TasteError/malformed(_:)``
    ///   for what is not such an answer.
    package static func songs(_ body: [UInt8]) throws(TasteError) -> [ServedSong] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw .malformed(String(decoding: body.prefix(200), as: UTF8.self))
        }
        if let r = object["r"], number(r) != 0 { throw .refused(object["err"] as? String ?? "r=\(r)") }
        guard let songs = object["song"] as? [[String: Any]] else { return [] }
        return songs.map { song in
            ServedSong(sid: text(song["sid"]), title: text(song["title"]), artist: text(song["artist"]),
                       length: number(song["length"] ?? 0), liked: number(song["like"] ?? 0) != 0,
                       reason: song["reason"].map(text))
        }
    }

    /// The fields of a login answer (§5.1).
    package static func login(_ body: [UInt8]) throws(TasteError) -> (userID: String, token: String, expire: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw .malformed(String(decoding: body.prefix(200), as: UTF8.self))
        }
        guard number(object["r"] ?? 1) == 0, let token = object["token"] else {
            throw .refused(object["err"] as? String ?? "login refused")
        }
        return (text(object["user_id"]), text(token), text(object["expire"]))
    }

    private static func text(_ value: Any?) -> String {
        switch value {
        case let string as String: string
        case let number as NSNumber: number.stringValue
        default: ""
        }
    }

    private static func number(_ value: Any) -> Double {
        switch value {
        case let number as NSNumber: number.doubleValue
        case let string as String: Double(string) ?? (string == "true" ? 1 : 0)
        default: 0
        }
    }
}

/// Why a taste run stopped.
package enum TasteError: Error, CustomStringConvertible {
    /// The station answered `r` other than 0, with this `err`.
    case refused(String)
    /// An answer that is not the protocol's JSON.
    case malformed(String)
    /// The station gave no songs to play, several times in a row.
    case noSongs(String)
    /// The station answered a song the library's truth does not know (title, artist).
    case unknownSong(String)
    /// The HTTP exchange or the station process failed.
    case station(String)

    /// One line.
    package var description: String {
        switch self {
        case .refused(let word): "the station refused: \(word)"
        case .malformed(let text): "not a station answer: \(text)"
        case .noSongs(let what): "no songs to play: \(what)"
        case .unknownSong(let what): "a song not in the library's truth: \(what)"
        case .station(let what): what
        }
    }
}
