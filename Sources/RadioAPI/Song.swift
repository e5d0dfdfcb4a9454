import Foundation

/// A song as the playlist endpoint describes it (docs/PROTOCOL.md §4.2), the same shape
/// for the app and web families.
///
/// Decoding is lenient about the field types real servers used; encoding writes the app
/// API's canonical types (strings for ids and `kbps`, integers for `length` and `like`), so
/// the station's answers look exactly like the recorded ones.
public struct Song: Sendable, Equatable, Codable {
    /// Song id, digits as text; ads use `da…` ids.
    public var sid: String
    /// Secondary id, needed with `sid` by the lyric endpoints.
    public var ssid: String
    /// Album id.
    public var aid: String
    /// Title.
    public var title: String
    /// Artist(s), e.g. `"Bruno Mars / B.o.B"`.
    public var artist: String
    /// Album path on the music site (e.g. `/subject/5952615/`), or an absolute URL.
    public var album: String
    /// Album name.
    public var albumTitle: String
    /// Cover image URL; may be empty.
    public var picture: String
    /// Audio URL. Time-limited on real servers: fetch shortly before playing.
    public var url: String
    /// Duration in seconds.
    public var length: Int
    /// Whether the listener has given the song a red heart.
    public var like: Bool
    /// Release year as the server wrote it (may be empty or junk such as `"12 O"`).
    public var publicTime: String
    /// Record label.
    public var company: String
    /// Average rating, when the server gives one.
    public var ratingAverage: Double?
    /// Bitrate of `url` in kbit/s, when given.
    public var kbps: Int?
    /// `""` for a song, `"T"` for an advertisement; `"S"`/`"U"` seen for notices.
    public var subtype: String
    /// SHA-256 of the audio file (64 hex digits), when the server gives it (the app
    /// family's `sha256`); downloads check the file against it.
    public var sha256: String?
    /// Why the station chose this song for the listener, one short sentence in the
    /// listener's terms ("you liked two songs by X"), when the station says (an mhz
    /// extension, docs/PROTOCOL.md §4.2; Douban's clients ignore it).
    public var reason: String?
    /// The gain (dB) still to apply to the audio at `url` to hear it at the station's level
    /// (an mhz extension, docs/PROTOCOL.md §4.2; Douban's clients ignore it): the song's
    /// levelling gain for its original file, 0 for a transcode made at the level, absent when
    /// the station does not level or has not measured the song.
    public var gain: Double?

    /// The gains a song may carry: a station's answer past them is not believed (a gain
    /// of +200 dB would be a station's bug, or a hostile one, not a level).
    public static let gains: ClosedRange<Double> = -60...60

    /// Creates a song; every text field defaults to empty.
    public init(sid: String, ssid: String = "", aid: String = "", title: String, artist: String,
                album: String = "", albumTitle: String = "", picture: String = "", url: String,
                length: Int, like: Bool = false, publicTime: String = "", company: String = "",
                ratingAverage: Double? = nil, kbps: Int? = nil, subtype: String = "", sha256: String? = nil,
                reason: String? = nil, gain: Double? = nil) {
        self.sid = sid
        self.ssid = ssid
        self.aid = aid
        self.title = title
        self.artist = artist
        self.album = album
        self.albumTitle = albumTitle
        self.picture = picture
        self.url = url
        self.length = length
        self.like = like
        self.publicTime = publicTime
        self.company = company
        self.ratingAverage = ratingAverage
        self.kbps = kbps
        self.subtype = subtype
        self.sha256 = sha256
        self.reason = reason
        self.gain = gain
    }

    /// Whether this entry is an advertisement (`subtype == "T"`) rather than music.
    public var isAdvertisement: Bool { subtype == "T" }

    enum CodingKeys: String, CodingKey {
        case sid, ssid, aid, title, artist, album, albumtitle, picture, url, length, like
        case publicTime = "public_time", company, ratingAverage = "rating_avg", kbps, subtype, sha256, reason, gain
    }

    /// Decodes a song, accepting every type variant of the recorded fixtures. Only `sid`
    /// and `url` are required: a song without them cannot be reported or played.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let sid = try c.lenientString(.sid), !sid.isEmpty else {
            throw DecodingError.keyNotFound(CodingKeys.sid, .init(codingPath: c.codingPath, debugDescription: "song without sid"))
        }
        guard let url = try c.lenientString(.url) else {
            throw DecodingError.keyNotFound(CodingKeys.url, .init(codingPath: c.codingPath, debugDescription: "song without url"))
        }
        self.sid = sid
        self.url = url
        ssid = try c.lenientString(.ssid) ?? ""
        aid = try c.lenientString(.aid) ?? ""
        title = try c.lenientString(.title) ?? ""
        artist = try c.lenientString(.artist) ?? ""
        album = try c.lenientString(.album) ?? ""
        albumTitle = try c.lenientString(.albumtitle) ?? ""
        picture = try c.lenientString(.picture) ?? ""
        length = try c.lenientInt(.length) ?? 0
        like = try c.lenientBool(.like) ?? false
        publicTime = try c.lenientString(.publicTime) ?? ""
        company = try c.lenientString(.company) ?? ""
        ratingAverage = try c.lenientDouble(.ratingAverage)
        kbps = try c.lenientInt(.kbps)
        subtype = try c.lenientString(.subtype) ?? ""
        sha256 = try c.lenientString(.sha256).flatMap { $0.isEmpty ? nil : $0 }
        reason = try c.lenientString(.reason).flatMap { $0.isEmpty ? nil : $0 }
        // An extension: a gain of the wrong type or out of bounds is not believed, and the
        // song still plays (unlevelled).
        gain = ((try? c.lenientDouble(.gain)) ?? nil).flatMap { Self.gains.contains($0) ? $0 : nil }
    }

    /// Encodes the app API's canonical shape (recorded fixture F1).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(album, forKey: .album)
        try c.encode(picture, forKey: .picture)
        try c.encode(ssid, forKey: .ssid)
        try c.encode(artist, forKey: .artist)
        try c.encode(url, forKey: .url)
        try c.encode(company, forKey: .company)
        try c.encode(title, forKey: .title)
        try c.encodeIfPresent(ratingAverage, forKey: .ratingAverage)
        try c.encode(length, forKey: .length)
        try c.encode(subtype, forKey: .subtype)
        try c.encode(publicTime, forKey: .publicTime)
        try c.encode(sid, forKey: .sid)
        try c.encode(aid, forKey: .aid)
        try c.encodeIfPresent(kbps.map(String.init), forKey: .kbps)
        try c.encode(albumTitle, forKey: .albumtitle)
        try c.encode(like ? 1 : 0, forKey: .like)
        try c.encodeIfPresent(reason, forKey: .reason)
        try c.encodeIfPresent(sha256, forKey: .sha256)
        try c.encodeIfPresent(gain, forKey: .gain)
    }
}
