import Foundation
import RadioAPI

/// Writes the song-list answers, the station's most frequent, straight into bytes: the
/// same JSON, byte for byte, as `JSONResponse`'s encoder (keys sorted, slashes not escaped,
/// whole doubles without a fraction), at a fraction of Foundation's `JSONEncoder` cost on
/// Linux, which dominated a playlist answer under load (BENCHMARKS.md).
///
/// The shapes are those RadioAPI's `SongList` and `Song` encoders write; the station tests
/// compare both writers' output for every answer they check.
enum PlaylistJSON {
    /// `{"logout":1,"r":0,"song":[…],"version_max":100}` and its variants (`warning`,
    /// `is_show_quick_start`), for a successful playlist.
    static func encode(_ playlist: SongList) -> Data {
        var out = Writer()
        out.raw("{")
        var first = true
        func key(_ name: String) {
            if !first { out.raw(",") }
            first = false
            out.raw("\"\(name)\":")
        }
        if let quick = playlist.showQuickStart { key("is_show_quick_start"); out.raw(String(quick)) }
        if playlist.loggedOut { key("logout"); out.raw("1") }
        key("r"); out.raw(String(playlist.status))
        key("song")
        out.songs(playlist.songs)
        if let version = playlist.versionMax { key("version_max"); out.raw(String(version)) }
        if let warning = playlist.warning { key("warning"); out.string(warning) }
        out.raw("}")
        return Data(out.bytes)
    }

    /// `{"r":0,"songs":[…]}`, the liked-songs answer.
    static func encode(likedSongs songs: [Song]) -> Data {
        var out = Writer()
        out.raw(#"{"r":0,"songs":"#)
        out.songs(songs)
        out.raw("}")
        return Data(out.bytes)
    }

    /// The bytes of one answer.
    struct Writer {
        /// What is written so far.
        var bytes: [UInt8] = []

        /// An empty writer, with room for a list of five songs.
        init() {
            bytes.reserveCapacity(4096)
        }

        /// Text written as it is.
        mutating func raw(_ text: String) {
            bytes.append(contentsOf: text.utf8)
        }

        /// A JSON string: `"` and `\` escaped, control characters as `\n`-style or
        /// `\u00XX` escapes, everything else (slashes, non-ASCII) as UTF-8.
        mutating func string(_ text: String) {
            bytes.append(0x22)
            // Most titles, names and links need no escape: copied whole rather than byte by byte.
            guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else {
                bytes.append(contentsOf: text.utf8)
                bytes.append(0x22)
                return
            }
            for byte in text.utf8 {
                switch byte {
                case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
                case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
                case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
                case 0x08: bytes.append(contentsOf: [0x5C, 0x62])
                case 0x0C: bytes.append(contentsOf: [0x5C, 0x66])
                case 0..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                default: bytes.append(byte)
                }
            }
            bytes.append(0x22)
        }

        /// A number as `JSONEncoder` writes a `Double`: whole values without a fraction.
        mutating func number(_ value: Double) {
            if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
                raw(String(Int64(value)))
            } else {
                raw(String(value))
            }
        }

        /// `[song, …]` in RadioAPI's `Song` shape, keys sorted.
        mutating func songs(_ songs: [Song]) {
            raw("[")
            for (index, song) in songs.enumerated() {
                if index > 0 { raw(",") }
                raw(#"{"aid":"#); string(song.aid)
                raw(#","album":"#); string(song.album)
                raw(#","albumtitle":"#); string(song.albumTitle)
                raw(#","artist":"#); string(song.artist)
                raw(#","company":"#); string(song.company)
                if let gain = song.gain { raw(#","gain":"#); number(gain) }
                if let kbps = song.kbps { raw(#","kbps":"#); string(String(kbps)) }
                raw(#","length":"#); raw(String(song.length))
                raw(#","like":"#); raw(song.like ? "1" : "0")
                raw(#","picture":"#); string(song.picture)
                raw(#","public_time":"#); string(song.publicTime)
                if let rating = song.ratingAverage { raw(#","rating_avg":"#); number(rating) }
                if let reason = song.reason { raw(#","reason":"#); string(reason) }
                if let sha256 = song.sha256 { raw(#","sha256":"#); string(sha256) }
                raw(#","sid":"#); string(song.sid)
                raw(#","ssid":"#); string(song.ssid)
                raw(#","subtype":"#); string(song.subtype)
                raw(#","title":"#); string(song.title)
                raw(#","url":"#); string(song.url)
                raw("}")
            }
            raw("]")
        }
    }
}
