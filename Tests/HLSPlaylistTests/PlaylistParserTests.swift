import Foundation
import Testing
@testable import HLSPlaylist

/// What the parser tolerates, what it refuses (with the line), and the variant choice on
/// the bandwidths ffmpeg writes.
struct PlaylistParserTests {
    static let base = URL(string: "http://h/a/list.m3u8")!

    static func media(_ text: String) throws -> MediaPlaylist {
        guard case .media(let media) = try PlaylistParser.parse(text, url: base) else {
            Issue.record("not a media playlist")
            return MediaPlaylist()
        }
        return media
    }

    @Test func whatPlayersTolerate() throws {
        // A BOM, a comment before the header, CRLF, spaces around lines and URIs, a KEY and
        // a BYTERANGE between EXTINF and its URI, an unknown tag, a junk comment, no final newline.
        let text = "\u{FEFF}# made by hand\r\n#EXTM3U\r\n#EXT-X-TARGETDURATION:4\r\n#EXT-X-UNKNOWN-TAG:1\r\n"
            + "  #EXTINF:4.0, first  \r\n#EXT-X-KEY:METHOD=AES-128,URI=\"k.bin\"\r\n#EXT-X-BYTERANGE:100@0\r\n   seg 0.ts   \r\n"
            + "# a comment\r\n#EXTINF:4,\r\nseg1.ts"
        let media = try Self.media(text)
        #expect(media.segments.count == 2)
        #expect(media.segments[0].title == "first")
        #expect(media.segments[0].uri.absoluteString == "http://h/a/seg%200.ts")
        #expect(media.segments[0].key?.uri?.absoluteString == "http://h/a/k.bin")
        #expect(media.segments[0].byteRange == ByteRange(length: 100, offset: 0))
        #expect(media.segments[1].byteRange == nil)
        #expect(media.segments[1].key?.ivHex == String(format: "%032x", 1))
        #expect(media.isLive)
        let data = Data([0xEF, 0xBB, 0xBF]) + Data("#EXTM3U\n#EXTINF:2,\nx.ts\n#EXT-X-ENDLIST\n".utf8)
        guard case .media(let fromData) = try PlaylistParser.parse(data, url: Self.base) else {
            Issue.record("not media")
            return
        }
        #expect(fromData.segments.map(\.uri.lastPathComponent) == ["x.ts"] && !fromData.isLive)
    }

    @Test func whatIsNotAPlaylist() {
        #expect(throws: PlaylistError.empty) { try PlaylistParser.parse(" \n\r\n ", url: Self.base) }
        #expect(throws: PlaylistError.notAPlaylist(firstLine: "<!DOCTYPE html>")) {
            try PlaylistParser.parse("<!DOCTYPE html>\n<html><body>Sign in</body></html>", url: Self.base)
        }
        #expect(throws: PlaylistError.notAPlaylist(firstLine: "binary data (4 bytes)")) {
            try PlaylistParser.parse(Data([0x47, 0x00, 0xFF, 0xFE]), url: Self.base)
        }
        #expect(throws: PlaylistError.notAPlaylist(firstLine: "seg.ts")) {
            try PlaylistParser.parse("seg.ts\n#EXTM3U\n", url: Self.base)
        }
    }

    @Test func brokenLinesAreNamed() {
        #expect(throws: PlaylistError.malformed(line: 2, text: "#EXT-X-STREAM-INF:BANDWIDTH=1000", reason: .missingURI)) {
            try PlaylistParser.parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\n#EXT-X-STREAM-INF:BANDWIDTH=2000\nb.m3u8\n", url: Self.base)
        }
        #expect(throws: PlaylistError.malformed(line: 3, text: "#EXT-X-STREAM-INF:BANDWIDTH=2000", reason: .missingURI)) {
            try PlaylistParser.parse("#EXTM3U\n\n#EXT-X-STREAM-INF:BANDWIDTH=2000\n", url: Self.base)
        }
        #expect(throws: PlaylistError.malformed(line: 2, text: "#EXT-X-STREAM-INF:CODECS=\"mp4a.40.2\"", reason: .missingBandwidth)) {
            try PlaylistParser.parse("#EXTM3U\n#EXT-X-STREAM-INF:CODECS=\"mp4a.40.2\"\na.m3u8\n", url: Self.base)
        }
        #expect(throws: PlaylistError.malformed(line: 2, text: "#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"mp4a", reason: .badAttributeList)) {
            try PlaylistParser.parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"mp4a\na.m3u8\n", url: Self.base)
        }
        #expect(throws: PlaylistError.malformed(line: 2, text: "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x123g", reason: .badIV)) {
            try PlaylistParser.parse("#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x123g\n", url: Self.base)
        }
        let long = "0x" + String(repeating: "1", count: 33)
        #expect(throws: PlaylistError.malformed(line: 2, text: "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=\(long)", reason: .badIV)) {
            try PlaylistParser.parse("#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=\(long)\n", url: Self.base)
        }
        #expect(throws: PlaylistError.malformed(line: 3, text: "#EXT-X-BYTERANGE:12@x", reason: .badByteRange)) {
            try PlaylistParser.parse("#EXTM3U\n#EXTINF:1,\n#EXT-X-BYTERANGE:12@x\na.ts\n", url: Self.base)
        }
        #expect(throws: PlaylistError.malformed(line: 2, text: "#EXTINF:four,", reason: .badDuration)) {
            try PlaylistParser.parse("#EXTM3U\n#EXTINF:four,\na.ts\n", url: Self.base)
        }
    }

    /// Inputs `script/fuzz playlist` found crashing the parser, kept in `Fixtures/fuzz`.
    @Test func numbersPast64BitsAreRefusedNotTrapped() throws {
        let url = try #require(Bundle.module.url(forResource: "version-past-int64", withExtension: "m3u8", subdirectory: "Fixtures/fuzz"))
        let found = try Data(contentsOf: url)
        #expect(throws: PlaylistError.malformed(line: 3, text: "#EXT-X-VERSION:" + String(repeating: "7", count: 47), reason: .badNumber)) {
            try PlaylistParser.parse(found, url: Self.base)
        }
        let big = "99999999999999999999"
        for (text, line, reason) in [
            ("#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:\(big)\n#EXTINF:1,\na.ts\n", "#EXT-X-MEDIA-SEQUENCE:\(big)", PlaylistError.Reason.badNumber),
            // The number that is too large to count segments from is the tag's, not the segment's.
            ("#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:9223372036854775807\n#EXTINF:1,\na.ts\n",
             "#EXT-X-MEDIA-SEQUENCE:9223372036854775807", .badNumber),
            ("#EXTM3U\n#EXT-X-DISCONTINUITY-SEQUENCE:9223372036854775807\n#EXT-X-DISCONTINUITY\n#EXTINF:1,\na.ts\n",
             "#EXT-X-DISCONTINUITY-SEQUENCE:9223372036854775807", .badNumber),
            ("#EXTM3U\n#EXTINF:1,\n#EXT-X-BYTERANGE:9223372036854775807@9\na.ts\n", "a.ts", .badByteRange),
            ("#EXTM3U\n#EXT-X-MAP:URI=\"i.mp4\",BYTERANGE=\"9223372036854775807@9\"\n",
             "#EXT-X-MAP:URI=\"i.mp4\",BYTERANGE=\"9223372036854775807@9\"", .badByteRange),
        ] {
            #expect(throws: PlaylistError.malformed(line: line == "a.ts" ? 4 : 2, text: line, reason: reason)) {
                try PlaylistParser.parse(text, url: Self.base)
            }
        }
        // An absurd BANDWIDTH or bitrate chooses without overflowing.
        let huge = MasterPlaylist(variants: [Variant(uri: Self.base, bandwidth: Int.max), Variant(uri: Self.base, bandwidth: 2000)])
        #expect(huge.choose(.kbps(Int.max))?.variant.bandwidth == Int.max)
        #expect(huge.choose(.kbps(1))?.variant.bandwidth == 2000)
    }

    /// `script/fuzz playlist` found ICU, under ISO8601DateFormatter, dividing by zero on an
    /// `EXT-X-PROGRAM-DATE-TIME` with a 107-digit fraction of a second (`Fixtures/fuzz`):
    /// the fraction is cut to nanoseconds before the formatter sees it.
    @Test func aLongFractionOfASecondIsCutNotACrash() throws {
        let url = try #require(Bundle.module.url(forResource: "program-date-time-long-fraction", withExtension: "m3u8",
                                                 subdirectory: "Fixtures/fuzz"))
        let found = try Data(contentsOf: url)
        _ = try? PlaylistParser.parse(found, url: Self.base)  // read or refused, but not a crash
        let long = ProgramDateTime.parse("2014-08-13T13:36:33." + String(repeating: "8", count: 40) + "+00:00")
        #expect(long != nil)
        #expect(long == ProgramDateTime.parse("2014-08-13T13:36:33.888888888+00:00"))
        #expect(ProgramDateTime.parse("2014-08-13T13:36:33.25Z") != nil)
    }

    @Test func encryptionADownloaderCannotUndoIsRefusedByName() throws {
        let cases: [(String, PlaylistError)] = [
            ("#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"k\"", .unsupportedEncryption(method: "SAMPLE-AES", keyFormat: nil)),
            ("#EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI=\"k\"", .unsupportedEncryption(method: "SAMPLE-AES-CTR", keyFormat: nil)),
            ("#EXT-X-KEY:METHOD=AES-128,URI=\"k\",KEYFORMAT=\"urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed\"",
             .unsupportedEncryption(method: "AES-128", keyFormat: "urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed")),
            ("#EXT-X-KEY:METHOD=AES-128", .unsupportedEncryption(method: "AES-128", keyFormat: nil)),
        ]
        for (tag, error) in cases {
            let media = try Self.media("#EXTM3U\n\(tag)\n#EXTINF:1,\na.ts\n")
            #expect(throws: error) { try media.checkDecryptable() }
        }
        let identity = try Self.media("#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",KEYFORMAT=\"identity\"\n#EXTINF:1,\na.ts\n")
        #expect(throws: Never.self) { try identity.checkDecryptable() }
    }

    /// The three variants of the generated fixture: 64, 128 and 192 kbit/s AAC, whose
    /// BANDWIDTH ffmpeg writes with 10 % overhead.
    static let generated = MasterPlaylist(variants: [70400, 140_800, 211_200].enumerated().map { index, bandwidth in
        Variant(uri: URL(string: "http://h/v\(index).m3u8")!, bandwidth: bandwidth, codecs: "mp4a.40.2")
    })

    @Test(arguments: [(64, 70400), (65, 140_800), (128, 140_800), (129, 211_200), (192, 211_200), (300, 211_200), (1, 70400)])
    func theLowestVariantAtOrAboveTheAskedBitrateElseTheHighest(kbps: Int, bandwidth: Int) {
        #expect(Self.generated.choose(.kbps(kbps))?.variant.bandwidth == bandwidth)
    }

    @Test func bestWorstAndTheWordsForThem() {
        #expect(Self.generated.choose(.best)?.variant.bandwidth == 211_200)
        #expect(Self.generated.choose(.worst)?.variant.bandwidth == 70400)
        #expect(VariantQuality("best") == .best && VariantQuality("WORST") == .worst && VariantQuality("128") == .kbps(128))
        #expect(VariantQuality("0") == nil && VariantQuality("high") == nil && VariantQuality("-5") == nil)
        #expect(MasterPlaylist().choose(.best) == nil)
    }
}
