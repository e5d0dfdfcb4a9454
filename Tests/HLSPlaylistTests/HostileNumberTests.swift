import Foundation
import Testing
@testable import HLSPlaylist

/// Numbers a playlist may hold that Swift reads differently from RFC 8216: digits outside
/// ASCII, which `Character`'s properties take and the integer parsers do not, and durations
/// `Double(_:)` reads that no segment has. Each is refused with its line, not trapped on.
struct HostileNumberTests {
    static let base = URL(string: "http://h/a/list.m3u8")!

    static func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "m3u8", subdirectory: "Fixtures/fuzz"))
        return try Data(contentsOf: url)
    }

    @Test func anIVWithFullWidthDigitsIsABadIV() throws {
        let line = "#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\",IV=0x\u{FF10}\u{FF11}\u{FF12}\u{FF13}456789abcdef0123456789abcdef"
        #expect(throws: PlaylistError.malformed(line: 4, text: line, reason: .badIV)) {
            try PlaylistParser.parse(try Self.fixture("iv-full-width-digits"), url: Self.base)
        }
        // One is enough, in any place, and full-width letters too.
        for iv in ["0x\u{FF11}", "0x0123456789abcdef0123456789abcde\u{FF11}", "0x\u{FF21}b", "\u{FF10}x12", "0\u{FF58}12"] {
            #expect(SegmentKey.explicitIV(iv) == nil, "\(iv)")
        }
        // ASCII digits of both cases still read, short ones left-padded.
        #expect(SegmentKey.explicitIV("0X0a") == [UInt8](repeating: 0, count: 15) + [10])
        #expect(SegmentKey.explicitIV("0xFFfe0000000000000000000000000001") == [255, 254] + [UInt8](repeating: 0, count: 13) + [1])
    }

    @Test func aDurationPastTheLongestIsABadDuration() throws {
        #expect(throws: PlaylistError.malformed(line: 6, text: "#EXTINF:1e20,", reason: .badDuration)) {
            try PlaylistParser.parse(try Self.fixture("extinf-1e20"), url: Self.base)
        }
        #expect(throws: PlaylistError.malformed(line: 4, text: "#EXTINF:1e308,", reason: .badDuration)) {
            try PlaylistParser.parse(try Self.fixture("extinf-1e308-every-segment"), url: Self.base)
        }
        for (tag, value) in [("#EXTINF", "100000000.001,"), ("#EXTINF", "inf,"), ("#EXTINF", "nan,"), ("#EXTINF", "0x1p4,"),
                             ("#EXTINF", "-1,"), ("#EXTINF", "\u{FF14},"), ("#EXTINF", "4\u{FF10},"),
                             ("#EXT-X-TARGETDURATION", "1e20"), ("#EXT-X-TARGETDURATION", "-4"),
                             ("#EXT-X-TARGETDURATION", "\u{FF14}"), ("#EXT-X-TARGETDURATION", "infinity")] {
            #expect(throws: PlaylistError.malformed(line: 2, text: "\(tag):\(value)", reason: .badDuration)) {
                try PlaylistParser.parse("#EXTM3U\n\(tag):\(value)\n#EXTINF:4,\na.ts\n", url: Self.base)
            }
        }
        // 10^8 s is the longest a segment may be; a playlist of such segments sums finitely.
        guard case .media(let media) = try PlaylistParser.parse(
            "#EXTM3U\n#EXT-X-TARGETDURATION:100000000\n#EXTINF:100000000,\na.ts\n#EXTINF:1e8,\nb.ts\n", url: Self.base)
        else { Issue.record("not a media playlist"); return }
        #expect(media.targetDuration == MediaPlaylist.longestDuration)
        #expect(media.totalDuration == 2 * MediaPlaylist.longestDuration)
    }

    /// `script/fuzz live` found ICU dividing by zero on a fraction of a second whose digits
    /// go on past a Devanagari three (`Fixtures/fuzz`): a date that is not ASCII is no date.
    @Test func aDateWithDigitsOfAnotherScriptIsNoDate() throws {
        guard case .media(let media) = try PlaylistParser.parse(try Self.fixture("program-date-time-devanagari-digit"),
                                                                url: Self.base)
        else { Issue.record("not a media playlist"); return }
        #expect(media.segments.map(\.programDateTime) == [nil])
        for text in ["2014-08-13T13:36:33.000\u{0969}Z", "2014-08-13T13:36:3\u{FF13}Z", "\u{0968}014-08-13T13:36:33Z"] {
            #expect(ProgramDateTime.parse(text) == nil, "\(text)")
        }
        #expect(ProgramDateTime.parse("2014-08-13T13:36:33.250Z") == Date(timeIntervalSince1970: 1_407_936_993.25))
    }
}
