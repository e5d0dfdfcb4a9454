import Foundation

/// An HLS playlist (RFC 8216 §4): a master (multivariant) playlist that lists variants of
/// one stream, or a media playlist that lists its segments.
public enum Playlist: Sendable, Equatable {
    /// A master playlist.
    case master(MasterPlaylist)
    /// A media playlist.
    case media(MediaPlaylist)
}

/// A master playlist: the variants of a stream (`EXT-X-STREAM-INF`) and its alternative
/// renditions (`EXT-X-MEDIA`).
public struct MasterPlaylist: Sendable, Equatable {
    /// The variants, in playlist order.
    public var variants: [Variant]
    /// The renditions (audio, video, subtitles, closed captions), in playlist order.
    public var renditions: [Rendition]
    /// `EXT-X-I-FRAME-STREAM-INF` entries: trick-play streams, of no use for listening.
    public var iFrameStreamCount: Int
    /// `EXT-X-INDEPENDENT-SEGMENTS`.
    public var independentSegments: Bool

    /// Creates a master playlist.
    public init(variants: [Variant] = [], renditions: [Rendition] = [], iFrameStreamCount: Int = 0,
                independentSegments: Bool = false) {
        self.variants = variants
        self.renditions = renditions
        self.iFrameStreamCount = iFrameStreamCount
        self.independentSegments = independentSegments
    }
}

/// One variant of a master playlist (`EXT-X-STREAM-INF` and the URI line after it).
public struct Variant: Sendable, Equatable {
    /// The variant's media playlist, resolved against the master playlist's URL.
    public var uri: URL
    /// `BANDWIDTH`: the peak bit rate, container overhead included (bit/s).
    public var bandwidth: Int
    /// `AVERAGE-BANDWIDTH`, when given (bit/s).
    public var averageBandwidth: Int?
    /// `CODECS`, as written (`mp4a.40.2,avc1.42e00a`).
    public var codecs: String?
    /// `RESOLUTION` (`1280x720`).
    public var resolution: String?
    /// `AUDIO`: the group of `EXT-X-MEDIA` audio renditions it plays with.
    public var audioGroup: String?
    /// `NAME` (a non-standard attribute some packagers write).
    public var name: String?
    /// `FRAME-RATE`.
    public var frameRate: Double?

    /// Creates a variant.
    public init(uri: URL, bandwidth: Int, averageBandwidth: Int? = nil, codecs: String? = nil, resolution: String? = nil,
                audioGroup: String? = nil, name: String? = nil, frameRate: Double? = nil) {
        self.uri = uri
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.codecs = codecs
        self.resolution = resolution
        self.audioGroup = audioGroup
        self.name = name
        self.frameRate = frameRate
    }

    /// Whether the variant carries audio alone: it names its codecs, every one is an audio
    /// codec, and it has no resolution.
    public var isAudioOnly: Bool {
        guard resolution == nil, let codecs, !codecs.isEmpty else { return false }
        let audio = ["mp4a", "ac-3", "ec-3", "opus", "flac", "fla", "alac", "mp3", ".mp3", "vorbis"]
        return codecs.split(separator: ",").allSatisfy { codec in
            let name = codec.trimmingCharacters(in: .whitespaces).lowercased()
            return audio.contains { name.hasPrefix($0) }
        }
    }
}

/// An alternative rendition (`EXT-X-MEDIA`).
public struct Rendition: Sendable, Equatable {
    /// What it is.
    public enum Kind: Sendable, Equatable {
        /// `AUDIO`.
        case audio
        /// `VIDEO`.
        case video
        /// `SUBTITLES`.
        case subtitles
        /// `CLOSED-CAPTIONS`.
        case closedCaptions
        /// Another value.
        case other(String)
    }

    /// `TYPE`.
    public var type: Kind
    /// `GROUP-ID`.
    public var groupID: String
    /// `NAME`.
    public var name: String
    /// `LANGUAGE`.
    public var language: String?
    /// Its media playlist, resolved; nil when the rendition is inside the variants' own media.
    public var uri: URL?
    /// `DEFAULT=YES`.
    public var isDefault: Bool
    /// `AUTOSELECT=YES`.
    public var autoselect: Bool
    /// `CHANNELS`.
    public var channels: String?

    /// Creates a rendition.
    public init(type: Kind, groupID: String, name: String, language: String? = nil, uri: URL? = nil,
                isDefault: Bool = false, autoselect: Bool = false, channels: String? = nil) {
        self.type = type
        self.groupID = groupID
        self.name = name
        self.language = language
        self.uri = uri
        self.isDefault = isDefault
        self.autoselect = autoselect
        self.channels = channels
    }
}
