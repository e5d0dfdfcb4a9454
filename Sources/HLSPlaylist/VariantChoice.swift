/// What to download from a master playlist: a variant, and the audio rendition to fetch
/// in its place when its audio is a playlist of its own, with why (``AudioReason``).
public struct VariantChoice: Sendable, Equatable {
    /// The variant.
    public var variant: Variant
    /// The `EXT-X-MEDIA` audio rendition the choice of audio rests on: the one in the
    /// language asked for, else the one that plays by default (`DEFAULT=YES`, else
    /// `AUTOSELECT=YES`, else the first of the group); nil when the variant has no audio
    /// group or the group lists no audio rendition.
    public var rendition: Rendition?
    /// Why the audio comes from where it does.
    public var reason: AudioReason

    /// Creates a choice.
    public init(variant: Variant, rendition: Rendition?, reason: AudioReason) {
        self.variant = variant
        self.rendition = rendition
        self.reason = reason
    }

    /// The rendition whose own media playlist is fetched instead of the variant's; nil when
    /// the audio is the variant's own (inside its segments).
    public var audio: Rendition? { reason.source == .rendition ? rendition : nil }
}

/// Where a download's audio comes from.
public enum AudioSource: String, Sendable, Equatable {
    /// The chosen variant's own segments (muxed with its video, or audio alone).
    case variant
    /// An `EXT-X-MEDIA` rendition's media playlist.
    case rendition
}

/// Why a master playlist's audio is taken from the variant or from a rendition. A
/// rendition's own playlist is taken only when the listener asked for its language, or
/// when it is what a player would play by default; a rendition without a URI is inside the
/// variant (RFC 8216 §4.3.4.1: "If the URI attribute is missing, the [rendition] is
/// included in the Media Playlist of any EXT-X-STREAM-INF tag referencing this
/// EXT-X-MEDIA tag").
public enum AudioReason: Sendable, Equatable {
    /// The variant names no `AUDIO` group: its audio is its own.
    case noAudioGroup
    /// The variant's `AUDIO` group lists no audio rendition: its audio is its own.
    case emptyGroup
    /// The rendition in the language asked for has a playlist of its own.
    case languageHasPlaylist
    /// The rendition in the language asked for has no URI: it is the variant's own audio.
    case languageInVariant
    /// The rendition that plays by default has a playlist of its own. `unmatchedLanguage`
    /// is the language asked for that no rendition of the group has.
    case defaultHasPlaylist(unmatchedLanguage: String?)
    /// The rendition that plays by default has no URI: it is the variant's own audio, and
    /// the group's other renditions (alternates a player would not pick) are left alone.
    /// `unmatchedLanguage` is the language asked for that no rendition of the group has.
    case defaultInVariant(unmatchedLanguage: String?)

    /// Where the audio comes from for this reason.
    public var source: AudioSource {
        switch self {
        case .languageHasPlaylist, .defaultHasPlaylist: .rendition
        case .noAudioGroup, .emptyGroup, .languageInVariant, .defaultInVariant: .variant
        }
    }
}

/// Which variant to take.
public enum VariantQuality: Sendable, Equatable {
    /// The highest bitrate.
    case best
    /// The lowest bitrate.
    case worst
    /// The lowest bitrate at or above this many kbit/s, else the highest.
    case kbps(Int)

    /// `best`, `worst` or a whole number of kbit/s above 0; nil otherwise.
    public init?(_ text: String) {
        switch text.lowercased() {
        case "best": self = .best
        case "worst": self = .worst
        default:
            guard let kbps = Int(text), kbps > 0 else { return nil }
            self = .kbps(kbps)
        }
    }

    /// `best`, `worst` or the kbit/s: the text ``init(_:)`` reads back.
    public var name: String {
        switch self {
        case .best: "best"
        case .worst: "worst"
        case .kbps(let kbps): "\(kbps)"
        }
    }
}

extension MasterPlaylist {
    /// Chooses a variant by `quality`, as Apple's downloader does ("the lowest media bitrate
    /// greater than or equal to the value, else the highest"), on each variant's bitrate:
    /// `AVERAGE-BANDWIDTH` when given, else `BANDWIDTH`, which is a peak with container
    /// overhead (ffmpeg writes 140800 for a 128 kbit/s stream), so it meets `KBPS` when
    /// `BANDWIDTH * 10 >= KBPS * 1000 * 11` — integers, no rounding. Audio-only variants
    /// are chosen from alone when there is one (a listener keeps audio); ties go to the
    /// first listed (redundant variants on backup hosts are one level).
    ///
    /// - Returns: nil when there is no variant.
    public func choose(_ quality: VariantQuality, audioLanguage: String? = nil) -> VariantChoice? {
        let audioOnly = variants.filter(\.isAudioOnly)
        let candidates = audioOnly.isEmpty ? variants : audioOnly
        guard !candidates.isEmpty else { return nil }
        // Bitrate for ordering, bit/s: AVERAGE-BANDWIDTH, else BANDWIDTH less its 10 %.
        func rate(_ variant: Variant) -> Int { variant.averageBandwidth ?? variant.bandwidth / 11 * 10 }
        func meets(_ variant: Variant, _ kbps: Int) -> Bool {
            if let average = variant.averageBandwidth { return average >= Self.product(kbps, 1000) }
            return Self.product(variant.bandwidth, 10) >= Self.product(kbps, 11_000)
        }
        // `max(by:)` keeps the last of equals; these keep the first.
        func highest(_ list: [Variant]) -> Variant { list.reduce(list[0]) { rate($1) > rate($0) ? $1 : $0 } }
        func lowest(_ list: [Variant]) -> Variant { list.reduce(list[0]) { rate($1) < rate($0) ? $1 : $0 } }
        let variant: Variant
        switch quality {
        case .best: variant = highest(candidates)
        case .worst: variant = lowest(candidates)
        case .kbps(let kbps):
            let enough = candidates.filter { meets($0, kbps) }
            variant = enough.isEmpty ? highest(candidates) : lowest(enough)
        }
        let (rendition, reason) = audio(of: variant, language: audioLanguage)
        return VariantChoice(variant: variant, rendition: rendition, reason: reason)
    }

    /// `a * b`, held at `Int.max` instead of trapping (an absurd BANDWIDTH or kbit/s).
    private static func product(_ a: Int, _ b: Int) -> Int {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? (a < 0) != (b < 0) ? Int.min : Int.max : value
    }

    /// The rendition `variant`'s audio choice rests on, and why: the rendition in
    /// `language` when one matches (by `LANGUAGE` or `NAME` prefix, the one a player would
    /// pick first among several), else the one a player plays by default (`DEFAULT=YES`,
    /// else `AUTOSELECT=YES`, else the first). Its playlist is fetched only when it has a
    /// URI; a default rendition without one means the variant carries the audio, and an
    /// alternate that is neither asked for nor the default (Apple's bipbop example lists a
    /// test tone as `AUTOSELECT=NO` audio beside it) is not fetched.
    private func audio(of variant: Variant, language: String?) -> (Rendition?, AudioReason) {
        guard let group = variant.audioGroup else { return (nil, .noAudioGroup) }
        let own = renditions.filter { $0.type == .audio && $0.groupID == group }
        guard !own.isEmpty else { return (nil, .emptyGroup) }
        func playedFirst(_ list: [Rendition]) -> Rendition {
            list.first(where: \.isDefault) ?? list.first(where: \.autoselect) ?? list[0]
        }
        var unmatched: String?
        if let asked = language?.lowercased(), !asked.isEmpty {
            let matching = own.filter { ($0.language?.lowercased().hasPrefix(asked) ?? false)
                || $0.name.lowercased().hasPrefix(asked) }
            if !matching.isEmpty {
                let match = playedFirst(matching)
                return (match, match.uri == nil ? .languageInVariant : .languageHasPlaylist)
            }
            unmatched = language
        }
        let fallback = playedFirst(own)
        return (fallback, fallback.uri == nil ? .defaultInVariant(unmatchedLanguage: unmatched)
            : .defaultHasPlaylist(unmatchedLanguage: unmatched))
    }
}
