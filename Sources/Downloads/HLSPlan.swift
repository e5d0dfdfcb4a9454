import Foundation
import HLSPlaylist

/// What an HLS download will fetch: the master playlist (when the URL was one), the
/// variant and audio rendition chosen from it, and the media playlist whose segments
/// become the file.
public struct HLSPlan: Sendable, Equatable {
    /// The master playlist, when the URL named one.
    public var master: MasterPlaylist?
    /// The variant (and audio rendition) chosen from the master playlist.
    public var choice: VariantChoice?
    /// The media playlist's final URL (after redirects): what its URIs are resolved
    /// against, and what a resume or a live reload fetches.
    public var mediaURL: URL
    /// The media playlist.
    public var media: MediaPlaylist

    /// The file extension of the joined segments: `m4a` for fragmented MP4 (an init
    /// segment), `aac` for packed audio, `ts` for MPEG-TS.
    public var fileExtension: String {
        if media.segments.contains(where: { $0.map != nil }) { return "m4a" }
        switch media.segments.first?.uri.pathExtension.lowercased() {
        case "aac": return "aac"
        case "mp3": return "mp3"
        case "m4s", "mp4", "m4a": return "m4a"
        default: return "ts"
        }
    }
}
