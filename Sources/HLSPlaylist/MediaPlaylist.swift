import Foundation

/// A media playlist: the segments of one rendition, in order.
public struct MediaPlaylist: Sendable, Equatable {
    /// `EXT-X-VERSION`.
    public var version: Int?
    /// `EXT-X-TARGETDURATION` (seconds): the longest segment, and a live playlist's reload
    /// interval.
    public var targetDuration: Double?
    /// `EXT-X-MEDIA-SEQUENCE`: the first segment's number (0 when absent).
    public var mediaSequence: Int
    /// `EXT-X-DISCONTINUITY-SEQUENCE` (0 when absent).
    public var discontinuitySequence: Int
    /// `EXT-X-PLAYLIST-TYPE`.
    public var playlistType: PlaylistType?
    /// `EXT-X-ENDLIST`: no segment will be added.
    public var hasEndList: Bool
    /// The segments.
    public var segments: [Segment]
    /// `EXT-X-INDEPENDENT-SEGMENTS`.
    public var independentSegments: Bool

    /// `EXT-X-PLAYLIST-TYPE`.
    public enum PlaylistType: String, Sendable, Equatable {
        /// Segments are only added at the end.
        case event = "EVENT"
        /// The playlist never changes.
        case vod = "VOD"
    }

    /// Creates a media playlist.
    public init(version: Int? = nil, targetDuration: Double? = nil, mediaSequence: Int = 0, discontinuitySequence: Int = 0,
                playlistType: PlaylistType? = nil, hasEndList: Bool = false, segments: [Segment] = [],
                independentSegments: Bool = false) {
        self.version = version
        self.targetDuration = targetDuration
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
        self.playlistType = playlistType
        self.hasEndList = hasEndList
        self.segments = segments
        self.independentSegments = independentSegments
    }

    /// The longest duration a playlist may give a segment or its target, seconds (10^8,
    /// over three years): RFC 8216 sets no bound, and players' own tests write segments of
    /// 10^6 s, but none lasts years, and 10^8 s in milliseconds summed over the segments of
    /// any playlist mhz could hold in memory stays inside 64 bits.
    public static let longestDuration: Double = 100_000_000

    /// Whether segments may still be added or removed: no `EXT-X-ENDLIST` and not VOD
    /// (RFC 8216 §6.2.1: a VOD playlist "MUST NOT change").
    public var isLive: Bool { !hasEndList && playlistType != .vod }

    /// The sum of the segments' durations, seconds.
    public var totalDuration: Double { segments.reduce(0) { $0 + $1.duration } }

    /// Refuses what a downloader cannot decrypt, by name: SAMPLE-AES and SAMPLE-AES-CTR
    /// (sample-level encryption inside the media), any unknown method, a key format other
    /// than `identity` (a DRM system: FairPlay's `com.apple.streamingkeydelivery`,
    /// Widevine, PlayReady), and an AES-128 key without a URI.
    public func checkDecryptable() throws(PlaylistError) {
        for segment in segments {
            for key in [segment.key, segment.map?.key].compactMap({ $0 }) {
                let format = key.keyFormat.map { $0.lowercased() == "identity" ? nil : $0 } ?? nil
                if key.method != .aes128 || format != nil || key.uri == nil {
                    throw .unsupportedEncryption(method: key.method.name, keyFormat: key.keyFormat)
                }
            }
        }
    }
}

/// One media segment.
public struct Segment: Sendable, Equatable {
    /// Its URI, resolved against the playlist's URL.
    public var uri: URL
    /// Its media sequence number.
    public var sequence: Int
    /// `EXTINF` duration, seconds.
    public var duration: Double
    /// `EXTINF` title, when one follows the comma.
    public var title: String?
    /// `EXT-X-BYTERANGE`: the bytes of `uri` that are this segment.
    public var byteRange: ByteRange?
    /// The key that decrypts it (nil: clear).
    public var key: SegmentKey?
    /// The init segment (`EXT-X-MAP`) it needs.
    public var map: MediaMap?
    /// `EXT-X-DISCONTINUITY` before it.
    public var discontinuity: Bool
    /// Its discontinuity sequence number.
    public var discontinuitySequence: Int
    /// Its `EXT-X-PROGRAM-DATE-TIME`, or the previous one plus the durations since.
    public var programDateTime: Date?

    /// Creates a segment.
    public init(uri: URL, sequence: Int, duration: Double, title: String? = nil, byteRange: ByteRange? = nil,
                key: SegmentKey? = nil, map: MediaMap? = nil, discontinuity: Bool = false, discontinuitySequence: Int = 0,
                programDateTime: Date? = nil) {
        self.uri = uri
        self.sequence = sequence
        self.duration = duration
        self.title = title
        self.byteRange = byteRange
        self.key = key
        self.map = map
        self.discontinuity = discontinuity
        self.discontinuitySequence = discontinuitySequence
        self.programDateTime = programDateTime
    }
}

/// A byte range of a resource (`EXT-X-BYTERANGE`, a MAP's `BYTERANGE`).
public struct ByteRange: Sendable, Equatable, Hashable {
    /// Bytes.
    public var length: Int64
    /// The first byte's offset.
    public var offset: Int64

    /// Creates a range.
    public init(length: Int64, offset: Int64) {
        self.length = length
        self.offset = offset
    }
}

/// The init segment of fragmented MP4 segments (`EXT-X-MAP`).
public struct MediaMap: Sendable, Equatable, Hashable {
    /// Its URI, resolved.
    public var uri: URL
    /// The bytes of it that are the init segment.
    public var byteRange: ByteRange?
    /// The key that decrypts it (the one in effect where the MAP tag stands).
    public var key: SegmentKey?

    /// Creates a map.
    public init(uri: URL, byteRange: ByteRange? = nil, key: SegmentKey? = nil) {
        self.uri = uri
        self.byteRange = byteRange
        self.key = key
    }
}
