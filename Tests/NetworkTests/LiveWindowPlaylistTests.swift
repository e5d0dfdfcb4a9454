import Foundation
import HLSPlaylist
import Radio
import Testing
@testable import mhz

/// The live client's reading of a live channel's media playlist into its window
/// (docs/PROTOCOL.md §11): the window from the segments' dates, and playlists whose numbers
/// once crashed `mhz --live … --server URL` (an IV with full-width digits, a segment of
/// 1e20 seconds, 1e308 on every one) refused by the parser with their line, or, built past
/// what the parser lets through, giving no window rather than a trap.
struct LiveWindowPlaylistTests {
    static let url = URL(string: "http://station.test/live/4/128.m3u8")!

    /// Segments of `durations` from 2026-11-29 07:00:00 UTC (1 795 935 600 000 ms), the
    /// first dated and the others dated by the durations before them, after `extra`.
    static func playlist(_ extra: String = "", durations: [String] = ["2.000", "2.000", "1.500"]) -> String {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:812\n\(extra)"
        text += "#EXT-X-PROGRAM-DATE-TIME:2026-11-29T07:00:00.000Z\n"
        for (index, duration) in durations.enumerated() { text += "#EXTINF:\(duration),\n\(812 + index).ts\n" }
        return text
    }

    @Test func theWindowComesFromTheDatesAndNumbersPastTheirRangeAreRefused() throws {
        guard case .media(let media) = try PlaylistParser.parse(Self.playlist(), url: Self.url) else {
            Issue.record("not a media playlist")
            return
        }
        #expect(LiveWindow(playlist: media)
            == LiveWindow(firstStart: 1_795_935_600_000, joinStart: 1_795_935_600_000, newestEnd: 1_795_935_605_500))

        let iv = "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x\u{FF10}\u{FF11}\u{FF12}\u{FF13}456789abcdef0123456789abcdef"
        for (text, line, bad, reason) in [
            (Self.playlist(iv + "\n"), 4, iv, PlaylistError.Reason.badIV),
            (Self.playlist(durations: ["2", "1e20", "2"]), 7, "#EXTINF:1e20,", .badDuration),
            (Self.playlist(durations: ["1e308", "1e308", "1e308"]), 5, "#EXTINF:1e308,", .badDuration),
        ] {
            #expect(throws: PlaylistError.malformed(line: line, text: bad, reason: reason)) {
                try PlaylistParser.parse(text, url: Self.url)
            }
        }

        let segment = try #require(URL(string: "http://station.test/live/4/812.ts"))
        for built in [Segment(uri: segment, sequence: 812, duration: 1e300, programDateTime: Date(timeIntervalSince1970: 0)),
                      Segment(uri: segment, sequence: 812, duration: 2, programDateTime: Date(timeIntervalSince1970: 1e300)),
                      Segment(uri: segment, sequence: 812, duration: 2)] {
            #expect(LiveWindow(playlist: MediaPlaylist(segments: [built])) == nil)
        }
        #expect(LiveWindow(playlist: MediaPlaylist()) == nil)
    }
}
