/// What to download from a master playlist: a variant, and the audio rendition to fetch
/// in its place when its audio is a playlist of its own.
public struct VariantChoice: Sendable, Equatable {
    /// The variant.
    public var variant: Variant
    /// The `EXT-X-MEDIA` audio rendition of the variant's `AUDIO` group chosen by language
    /// (else the default, else the first), when the group's renditions have URIs; nil when
    /// the audio is inside the variant's own segments.
    public var audio: Rendition?

    /// Creates a choice.
    public init(variant: Variant, audio: Rendition?) {
        self.variant = variant
        self.audio = audio
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
        return VariantChoice(variant: variant, audio: audioRendition(for: variant, language: audioLanguage))
    }

    /// `a * b`, held at `Int.max` instead of trapping (an absurd BANDWIDTH or kbit/s).
    private static func product(_ a: Int, _ b: Int) -> Int {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? (a < 0) != (b < 0) ? Int.min : Int.max : value
    }

    /// The audio rendition of `variant`'s group to fetch, if its renditions have URIs.
    private func audioRendition(for variant: Variant, language: String?) -> Rendition? {
        guard let group = variant.audioGroup else { return nil }
        let own = renditions.filter { $0.type == .audio && $0.groupID == group && $0.uri != nil }
        if let language = language?.lowercased(), !language.isEmpty,
           let match = own.first(where: { ($0.language?.lowercased().hasPrefix(language) ?? false)
               || $0.name.lowercased().hasPrefix(language) })
        {
            return match
        }
        return own.first(where: \.isDefault) ?? own.first
    }
}
