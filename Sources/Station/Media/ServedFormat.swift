import MusicLibrary

/// What a song's audio is served as: the file as it is on disk, or MP3 at a bitrate,
/// transcoded on demand and cached.
///
/// Douban served MP3 at the `kbps` a request asked (64, 128, 192; 64 for accounts that were
/// not Pro), and clients built on an MP3 decoder (hzqtc/fmd with libmpg123) play nothing
/// else, so both families get MP3 unless a request asks for the original with
/// `format=original` (mhz's own parameter; Douban's clients never send it). A file that is
/// MP3 already at no more than the bitrate asked is served as it is: re-encoding it would
/// only lose quality.
enum ServedFormat: Sendable, Equatable, Hashable {
    /// The library file itself.
    case original
    /// MP3 at this many kbit/s (one of ``bitrates``).
    case mp3(kbps: Int)

    /// The bitrates served, as Douban's `kbps` values.
    static let bitrates = [64, 128, 192]
    /// The bitrate when a request names none.
    static let defaultBitrate = 128

    /// The format a request asks for a track.
    ///
    /// - Parameters:
    ///   - request: its `format` and `kbps` (else `pb`) parameters (a `kbps` outside ``bitrates`` is
    ///     taken as the nearest of them; none or an unreadable one as ``defaultBitrate``).
    ///   - track: the track to serve.
    static func asked(by request: StationRequest, for track: LibraryTrack) -> ServedFormat {
        if request.parameter("format") == "original" { return .original }
        let kbps = bitrate(asked: request.parameter("kbps") ?? request.parameter("pb"))
        if track.fileExtension == "mp3", track.bitrate > 0, track.bitrate <= kbps + 8 { return .original }
        return .mp3(kbps: kbps)
    }

    /// The served bitrate for a `kbps` parameter.
    static func bitrate(asked text: String?) -> Int {
        guard let text, let asked = Int(text.trimmingWhitespace()), asked > 0 else { return defaultBitrate }
        return bitrates.min { abs($0 - asked) < abs($1 - asked) } ?? defaultBitrate
    }

    /// The media route's file name for `track` in this format: `<sid>.<ext>` for the
    /// original, `<sid>-<kbps>k.mp3` for a transcode (Douban's were `p82943_128k.mp4`).
    func mediaFileName(of track: LibraryTrack) -> String {
        switch self {
        case .original: return track.mediaFileName
        case .mp3(let kbps): return "\(track.sid)-\(kbps)k.mp3"
        }
    }

    /// The `kbps` of the song object: what is served, so a client shows the truth. The
    /// original's bitrate is the one TagLib read, else estimated from nothing: `nil`.
    func kbps(of track: LibraryTrack) -> Int? {
        switch self {
        case .original: return track.bitrate > 0 ? track.bitrate : nil
        case .mp3(let kbps): return kbps
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
