import Settings
import Downloads
import Foundation
import HLSPlaylist
import HTTP

/// An HLS playlist's plan for the command line: read before a download (so a playlist
/// that cannot be used fails in one line, before any task is made) and printed by
/// `mhz download --plan [--json]`.
enum HLSPlanText {
    /// Reads the playlist at `url` and chooses what a download would fetch.
    static func plan(_ url: URL, config: Config, quality: VariantQuality, audioLanguage: String?) async throws(CLIError)
        -> HLSPlan
    {
        let planner = HLSPlanner(http: HTTPClient(configuration: RadioRuntime.httpConfiguration(config)))
        do throws(DownloadError) {
            let plan = try await planner.plan(url, quality: quality, audioLanguage: audioLanguage)
            do { try plan.media.checkDecryptable() } catch { throw HLSPlanner.failure(error) }
            if plan.media.segments.isEmpty, !plan.media.isLive {
                throw .playlist(url: plan.mediaURL.absoluteString, reason: .emptyPlaylist)
            }
            return plan
        } catch {
            throw .runtime(DownloadText.describe(error, origin: .link))
        }
    }

    /// One JSON object: `{"kind","variants","chosen","audio","live","duration","segments"}`,
    /// `audio` saying where a master playlist's audio comes from and why (`source`
    /// `variant` or `rendition`, `reason` a fixed word, `why` in words, the `rendition` the
    /// choice rests on), the segments with their byte range `[length, offset]`, key (`iv` as
    /// the 32 hex digits that decrypt that segment) and init segment.
    static func json(_ plan: HLSPlan) -> String {
        let variants: [[String: Any]] = plan.master?.variants.map { variant in
            ["uri": variant.uri.absoluteString, "bandwidth": variant.bandwidth,
             "average_bandwidth": variant.averageBandwidth.map { $0 as Any } ?? NSNull(),
             "codecs": variant.codecs.map { $0 as Any } ?? NSNull(),
             "audio": variant.audioGroup.map { $0 as Any } ?? NSNull()]
        } ?? []
        let segments: [[String: Any]] = plan.media.segments.map { segment in
            ["uri": segment.uri.absoluteString, "sequence": segment.sequence, "duration": segment.duration,
             "byte_range": range(segment.byteRange), "key": key(segment.key),
             "map": segment.map.map { map -> Any in
                 ["uri": map.uri.absoluteString, "byte_range": range(map.byteRange), "key": key(map.key)] as [String: Any]
             } ?? NSNull(),
             "discontinuity": segment.discontinuity]
        }
        var chosen: Any = NSNull()
        if let choice = plan.choice { chosen = (choice.audio?.uri ?? choice.variant.uri).absoluteString }
        let object: [String: Any] = [
            "kind": plan.master == nil ? "media" : "master", "variants": variants, "chosen": chosen,
            "audio": plan.choice.map(audio) ?? NSNull(),
            "live": plan.media.isLive, "duration": plan.media.totalDuration, "segments": segments,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// A few lines for a person: the variants with the chosen one marked, then the totals.
    static func text(_ plan: HLSPlan) -> String {
        var lines: [String] = []
        let chosen = plan.choice?.variant.uri
        for variant in plan.master?.variants ?? [] {
            let mark = variant.uri == chosen ? "*" : " "
            let average = variant.averageBandwidth.map { " (average \($0))" } ?? ""
            lines.append("\(mark) \(variant.bandwidth) bit/s\(average) \(variant.codecs ?? "") \(variant.uri.absoluteString)")
        }
        if let choice = plan.choice {
            let from = choice.audio.map { "the rendition \($0.uri?.absoluteString ?? "")" } ?? "the variant"
            lines.append("audio: from \(from) — \(why(choice))")
        }
        let encrypted = plan.media.segments.contains { $0.key != nil } ? ", AES-128" : ""
        let live = plan.media.isLive ? "live, " : ""
        lines.append("\(plan.mediaURL.absoluteString): \(live)\(plan.media.segments.count) segments, "
                     + String(format: "%.1f s", plan.media.totalDuration) + encrypted)
        return lines.joined(separator: "\n")
    }

    /// Where the audio comes from and why, as the plan's `audio` object.
    static func audio(_ choice: VariantChoice) -> [String: Any] {
        let rendition: Any = choice.rendition.map { rendition -> Any in
            ["name": rendition.name, "language": rendition.language.map { $0 as Any } ?? NSNull(),
             "uri": rendition.uri.map { $0.absoluteString as Any } ?? NSNull(), "default": rendition.isDefault,
             "autoselect": rendition.autoselect] as [String: Any]
        } ?? NSNull()
        return ["source": choice.reason.source.rawValue, "reason": code(choice.reason), "why": why(choice),
                "rendition": rendition]
    }

    /// The reason as a fixed word for scripts.
    static func code(_ reason: AudioReason) -> String {
        switch reason {
        case .noAudioGroup: "no-audio-group"
        case .emptyGroup: "empty-group"
        case .languageHasPlaylist: "language-has-playlist"
        case .languageInVariant: "language-in-variant"
        case .defaultHasPlaylist: "default-has-playlist"
        case .defaultInVariant: "default-in-variant"
        }
    }

    /// The reason in words.
    static func why(_ choice: VariantChoice) -> String {
        let name = choice.rendition.map { "\"\($0.name)\"" } ?? ""
        let group = choice.variant.audioGroup ?? ""
        func unmatched(_ language: String?) -> String {
            language.map { "no rendition is in the language \"\($0)\"; " } ?? ""
        }
        switch choice.reason {
        case .noAudioGroup: return "the variant names no audio group: its audio is its own"
        case .emptyGroup: return "the variant's audio group \"\(group)\" lists no rendition: its audio is its own"
        case .languageHasPlaylist: return "the rendition \(name) is in the language asked and has a playlist of its own"
        case .languageInVariant: return "the rendition \(name) in the language asked has no URI: its audio is in the variant"
        case .defaultHasPlaylist(let language):
            return unmatched(language) + "the rendition \(name) plays by default and has a playlist of its own"
        case .defaultInVariant(let language):
            return unmatched(language) + "the default rendition \(name) has no URI: its audio is in the variant"
        }
    }

    private static func range(_ range: ByteRange?) -> Any {
        range.map { [$0.length, $0.offset] as [Any] } ?? NSNull()
    }

    private static func key(_ key: SegmentKey?) -> Any {
        guard let key else { return NSNull() }
        return ["method": key.method.name, "uri": key.uri.map { $0.absoluteString as Any } ?? NSNull(), "iv": key.ivHex]
            as [String: Any]
    }
}
