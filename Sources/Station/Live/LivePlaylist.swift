import Foundation
import Transcoder

/// The text of a channel's HLS playlists (RFC 8216), from the segments a broadcast lists:
/// the master playlist of its variants and each variant's media playlist, live (a window
/// at the live edge, or everything from a moment on) or a VOD of a range.
enum LivePlaylist {
    /// The master playlist: one AAC-LC variant per bit rate, each at `<channel>/<kbps>.m3u8`
    /// relative to the master's own `/live/<channel>.m3u8`, carrying `query` (a look-back's
    /// `begintime` and `endtime`) on. Each declares what its segments of `segmentDuration`
    /// cost at most on the wire, and on average (``LiveBandwidth``): `BANDWIDTH` and
    /// `AVERAGE-BANDWIDTH`.
    static func master(channel: String, query: String?, segmentDuration: Duration) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n"
        let suffix = query.map { $0.isEmpty ? "" : "?\($0)" } ?? ""
        let (whole, fraction) = segmentDuration.components
        let seconds = Double(whole) + Double(fraction) / 1e18
        for kbps in LiveConfiguration.bitrates {
            let peak = LiveBandwidth.peak(kbps: kbps, segmentSeconds: seconds)
            let average = LiveBandwidth.average(kbps: kbps, segmentSeconds: seconds)
            text += "#EXT-X-STREAM-INF:BANDWIDTH=\(peak),AVERAGE-BANDWIDTH=\(average),CODECS=\"mp4a.40.2\"\n"
            text += "\(channel)/\(kbps).m3u8\(suffix)\n"
        }
        return text
    }

    /// What a media playlist lists and how it ends.
    enum Kind {
        /// A live playlist: more segments will follow, no `EXT-X-ENDLIST`.
        case live
        /// A live playlist from a moment in the look-back on: as `live`, and it asks the
        /// player to start at its first segment (`EXT-X-START`).
        case liveFrom
        /// A finished range: `EXT-X-PLAYLIST-TYPE:VOD` and `EXT-X-ENDLIST`.
        case vod
    }

    /// A variant's media playlist of `segments` (consecutive, oldest first), each at
    /// `<kbps>/<sequence>.ts` relative to the playlist's `/live/<channel>/<kbps>.m3u8`.
    static func media(_ segments: ArraySlice<LiveSegment>, kbps: Int, kind: Kind, minimumTarget: Int) -> String {
        let longest = segments.map(\.duration).max() ?? Double(minimumTarget)
        let target = max(minimumTarget, Int(longest.rounded()))
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(target)\n"
        text += "#EXT-X-MEDIA-SEQUENCE:\(segments.first?.sequence ?? 0)\n"
        // RFC 8216 §4.3.3.3: what keeps the variants' timelines together once a
        // discontinuity has left the window.
        if let era = segments.first?.era, era > 0 { text += "#EXT-X-DISCONTINUITY-SEQUENCE:\(era)\n" }
        switch kind {
        case .live: break
        case .liveFrom: text += "#EXT-X-START:TIME-OFFSET=0,PRECISE=YES\n"
        case .vod: text += "#EXT-X-PLAYLIST-TYPE:VOD\n"
        }
        for (offset, segment) in zip(0..., segments) {
            // A discontinuity before the first segment listed has nothing to divide.
            if segment.discontinuity, offset > 0 { text += "#EXT-X-DISCONTINUITY\n" }
            text += "#EXT-X-PROGRAM-DATE-TIME:\(dateTime(segment.start))\n"
            text += "#EXTINF:\(String(format: "%.3f", segment.duration)),\(oneLine(segment.title))\n"
            text += "\(kbps)/\(segment.sequence).ts\n"
        }
        if case .vod = kind { text += "#EXT-X-ENDLIST\n" }
        return text
    }

    /// A title fit for the line after `#EXTINF:d,`: no line breaks.
    private static func oneLine(_ title: String) -> String {
        String(title.map { $0.isNewline ? " " : $0 })
    }

    /// `milliseconds` since the epoch as RFC 3339 in UTC with milliseconds
    /// (`2026-11-27T15:30:00.000Z`), without Foundation's formatters.
    static func dateTime(_ milliseconds: Int64) -> String {
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec),
                      Int(milliseconds % 1000))
    }
}
