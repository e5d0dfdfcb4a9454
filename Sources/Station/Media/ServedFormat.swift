import MusicLibrary
import RadioAPI
import Transcoder

/// What a song's audio is served as: the file as it is on disk, or MP3 at a bitrate,
/// transcoded on demand and cached.
///
/// Douban served MP3 at the `kbps` a request asked (64, 128, 192; 64 for accounts that were
/// not Pro), and clients built on an MP3 decoder (hzqtc/fmd with libmpg123) play nothing
/// else, so both families get MP3 unless a request asks for the original with
/// `format=original` (mhz's own parameter; Douban's clients never send it). A file that is
/// MP3 already at no more than the bitrate asked is served as it is (re-encoding it would
/// only lose quality) unless it must be levelled: a Douban client applies no gain, so a
/// song the station levels by half a dB or more is transcoded at its level instead.
///
/// A transcode made at a level carries its gain in its name (``mediaFileName(of:)``), so
/// one URL always means the same bytes: when the gain changes (the song was measured, the
/// levelling was turned off) the song has a new name, and the old one is redirected.
enum ServedFormat: Sendable, Equatable, Hashable {
    /// The library file itself.
    case original
    /// MP3 at `kbps` kbit/s (one of ``bitrates``), every sample multiplied by a gain of
    /// `gainTenths` tenths of a dB (0: the samples as they are).
    case mp3(kbps: Int, gainTenths: Int = 0)

    /// The bitrates served, as Douban's `kbps` values.
    static let bitrates = [64, 128, 192]
    /// The bitrate when a request names none.
    static let defaultBitrate = 128
    /// The smallest gain (dB, either way) a small MP3 is transcoded for rather than passed
    /// through: below it the difference is not heard, and re-encoding would cost quality.
    static let passThroughGain = 0.5

    /// The format a request asks for a track.
    ///
    /// - Parameters:
    ///   - request: its `format` and `kbps` (else `pb`) parameters (a `kbps` outside ``bitrates`` is
    ///     taken as the nearest of them; none or an unreadable one as ``defaultBitrate``).
    ///   - track: the track to serve.
    ///   - gain: the gain (dB) the station levels the track by (``Leveling``), `nil` for none.
    static func asked(by request: StationRequest, for track: LibraryTrack, gain: Double? = nil) -> ServedFormat {
        if request.parameter("format") == "original" { return .original }
        let kbps = bitrate(asked: request.parameter("kbps") ?? request.parameter("pb"))
        let tenths = tenths(of: gain) ?? 0
        if track.fileExtension == "mp3", track.bitrate > 0, track.bitrate <= kbps + 8,
           Double(abs(tenths)) < passThroughGain * 10 {
            return .original
        }
        return .mp3(kbps: kbps, gainTenths: tenths)
    }

    /// The served bitrate for a `kbps` parameter.
    static func bitrate(asked text: String?) -> Int {
        guard let text, let asked = Int(text.trimmingWhitespace()), asked > 0 else { return defaultBitrate }
        return bitrates.min { abs($0 - asked) < abs($1 - asked) } ?? defaultBitrate
    }

    /// A gain in whole tenths of a dB, `nil` for no gain or one that is not a level (not
    /// finite, or outside `Song.gains`, which is also what a transcode can be made at).
    static func tenths(of gain: Double?) -> Int? {
        guard let gain, gain.isFinite, Song.gains.contains(gain), FrameGain.range.contains(gain) else { return nil }
        return Int((gain * 10).rounded())
    }

    /// The `gain` of the song object whose `url` serves this format, for a track levelled
    /// by `gain` (dB, `nil` when it is not levelled): what the player must still apply.
    /// The original is as loud as it was mastered: the whole gain; a transcode was made at
    /// the level: 0.
    func songGain(levelledBy gain: Double?) -> Double? {
        guard let tenths = Self.tenths(of: gain) else { return nil }
        switch self {
        // From whole tenths, so a gain is never written as -0.
        case .original: return Double(tenths) / 10
        case .mp3: return 0
        }
    }

    /// The media route's file name for `track` in this format: `<sid>.<ext>` for the
    /// original; for a transcode `<sid>-<kbps>k.mp3` (Douban's were `p82943_128k.mp4`), and
    /// `<sid>-<kbps>k-g<m|p><tenths>.mp3` for one made at a gain (`-gm63`: −6.3 dB,
    /// `-gp25`: +2.5 dB). A gain of 0 is the plain name: its bytes are the same.
    func mediaFileName(of track: LibraryTrack) -> String {
        switch self {
        case .original: return track.mediaFileName
        case .mp3(let kbps, let tenths):
            guard tenths != 0 else { return "\(track.sid)-\(kbps)k.mp3" }
            return "\(track.sid)-\(kbps)k-g\(tenths < 0 ? "m" : "p")\(tenths.magnitude).mp3"
        }
    }

    /// The song id, bitrate and gain (tenths of a dB) a transcode's file name spells
    /// (``mediaFileName(of:)``): `nil` for any other shape. Neither the song nor the gain is
    /// checked against the library: the media route does that.
    static func transcode(named name: Substring) -> (sid: Substring, kbps: Int, gainTenths: Int)? {
        guard name.hasSuffix(".mp3"), let dash = name.firstIndex(of: "-") else { return nil }
        let sid = name[..<dash]
        let rest = name[name.index(after: dash)...].dropLast(4)
        guard !sid.isEmpty, sid.allSatisfy({ $0.isASCII && $0.isNumber }), let k = rest.firstIndex(of: "k"),
              rest[..<k].allSatisfy({ $0.isASCII && $0.isNumber }), let kbps = Int(rest[..<k]), bitrates.contains(kbps)
        else { return nil }
        let level = rest[rest.index(after: k)...]
        if level.isEmpty { return (sid, kbps, 0) }
        // "-g", a sign, and at most four digits: no number a level can be is longer.
        guard level.hasPrefix("-g"), level.count >= 4, level.count <= 7 else { return nil }
        let sign = level.dropFirst(2).first
        let digits = level.dropFirst(3)
        guard sign == "m" || sign == "p", digits.allSatisfy({ $0.isASCII && $0.isNumber }), let magnitude = Int(digits)
        else { return nil }
        return (sid, kbps, sign == "m" ? -magnitude : magnitude)
    }

    /// The gain a transcode in this format is made at (unity for the original).
    var frameGain: FrameGain {
        switch self {
        case .original: return .unity
        case .mp3(_, let tenths): return FrameGain(decibels: Double(tenths) / 10)
        }
    }

    /// The `kbps` of the song object: what is served, so a client shows the truth. The
    /// original's bitrate is the one TagLib read, else estimated from nothing: `nil`.
    func kbps(of track: LibraryTrack) -> Int? {
        switch self {
        case .original: return track.bitrate > 0 ? track.bitrate : nil
        case .mp3(let kbps, _): return kbps
        }
    }

    /// The file extension served (`file_ext` of the web family's songs).
    func fileExtension(of track: LibraryTrack) -> String {
        switch self {
        case .original: return track.fileExtension
        case .mp3: return "mp3"
        }
    }
}
