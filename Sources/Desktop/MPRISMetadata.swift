import Foundation
import Radio

/// The `Metadata` of the MPRIS player interface for one song: the spec's `mpris:` and
/// `xesam:` keys mhz can fill (https://www.freedesktop.org/wiki/Specifications/mpris-spec/metadata/).
struct MPRISMetadata: Sendable, Equatable {
    /// `mpris:trackid`: an object path unique to the song; nil when nothing plays (then the
    /// metadata is empty, as the spec allows).
    var trackID: String?
    /// `xesam:title`.
    var title = ""
    /// `xesam:artist`: a list in the spec; the station names one artist string.
    var artists: [String] = []
    /// `xesam:album`.
    var album = ""
    /// `mpris:length` in microseconds, when known.
    var length: Int64?
    /// `mpris:artUrl`: a `file://` URL of a local cover, when there is one.
    var artURL: String?
    /// `xesam:userRating`, 0–1: 1 for a song with a red heart.
    var userRating: Double = 0

    /// Where track ids live: under mhz's own prefix, not `/org/mpris`, which the spec
    /// reserves ("/org/mpris" namespace is reserved for the spec's own paths).
    static let trackPrefix = "/org/mhz/track/"

    /// No song.
    static let empty = MPRISMetadata()

    /// The metadata of `track`, `duration` its best known length in seconds.
    init(track: Track, duration: Double?, coverFile: URL?, liked: Bool) {
        trackID = Self.trackID(sid: track.sid)
        title = track.title
        artists = track.artist.isEmpty ? [] : [track.artist]
        album = track.album
        // The station's `length` or the file's duration: any number, held within 64 bits.
        length = duration.map { LiveTiming.units($0, perSecond: 1_000_000) }
        artURL = coverFile.map { $0.absoluteURL.absoluteString }
        userRating = liked ? 1 : 0
    }

    /// Nothing playing.
    init() {}

    /// The track id of song `sid`: the object path `/org/mhz/track/<sid>` with every byte of
    /// the sid outside `[A-Za-z0-9]` written `_XX` (hex), since an object path element allows
    /// only `[A-Za-z0-9_]`; `_` itself is escaped, so two sids never share a path. An empty
    /// sid is `_`, which no escape produces.
    static func trackID(sid: String) -> String {
        guard !sid.isEmpty else { return trackPrefix + "_" }
        var element = ""
        for byte in sid.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "a")...UInt8(ascii: "z"):
                element.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                element += "_" + SessionBusAddress.hex(byte)
            }
        }
        return trackPrefix + element
    }

    /// The `a{sv}` as sent: keys in a fixed order, absent values left out.
    var value: BusValue {
        guard let trackID else { return .dictionary([]) }
        var entries = [BusEntry("mpris:trackid", .objectPath(trackID)),
                       BusEntry("xesam:title", .string(title)),
                       BusEntry("xesam:artist", .strings(artists)),
                       BusEntry("xesam:album", .string(album))]
        if let length { entries.append(BusEntry("mpris:length", .int64(length))) }
        if let artURL { entries.append(BusEntry("mpris:artUrl", .string(artURL))) }
        entries.append(BusEntry("xesam:userRating", .double(userRating)))
        return .dictionary(entries)
    }
}
