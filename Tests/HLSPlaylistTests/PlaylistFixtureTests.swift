import Foundation
import Testing
@testable import HLSPlaylist

/// Every fixture in `Fixtures/hls` (verbatim copies of peer parsers' test playlists; their
/// sources are in `Fixtures/hls/SOURCES.md`) parsed with the values those peers' own tests
/// assert, and, where peers disagree, the reading `PlaylistParser` documents.
struct PlaylistFixtureTests {
    static let base = URL(string: "http://host/dir/playlist.m3u8")!

    static func text(_ name: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "m3u8", subdirectory: "Fixtures/hls"))
        return try String(contentsOf: url, encoding: .utf8)
    }

    static func media(_ name: String, base: URL = base) throws -> MediaPlaylist {
        guard case .media(let media) = try PlaylistParser.parse(try text(name), url: base) else {
            Issue.record("\(name) is not a media playlist")
            return MediaPlaylist()
        }
        return media
    }

    static func master(_ name: String, base: URL = base) throws -> MasterPlaylist {
        guard case .master(let master) = try PlaylistParser.parse(try text(name), url: base) else {
            Issue.record("\(name) is not a master playlist")
            return MasterPlaylist()
        }
        return master
    }

    static func hex(_ value: Int) -> String { String(format: "%032x", value) }

    // MARK: Master playlists

    @Test func m01RFCMaster() throws {
        let master = try Self.master("m01-rfc8216-8.4-master")
        #expect(master.variants.map(\.bandwidth) == [1_280_000, 2_560_000, 7_680_000, 65000])
        #expect(master.variants.map(\.averageBandwidth) == [1_000_000, 2_000_000, 6_000_000, nil])
        #expect(master.variants.map(\.codecs) == [nil, nil, nil, "mp4a.40.5"])
        #expect(master.variants.map(\.isAudioOnly) == [false, false, false, true])
        #expect(master.variants[2].uri.absoluteString == "http://example.com/hi.m3u8")
        // Audio-only variants are preferred for listening, so "best" of the video ones
        // is only taken when there is none.
        #expect(master.choose(.best)?.variant.uri.absoluteString == "http://example.com/audio-only.m3u8")
        let video = MasterPlaylist(variants: master.variants.filter { !$0.isAudioOnly })
        #expect(video.choose(.best)?.variant.bandwidth == 7_680_000)
        // AVERAGE-BANDWIDTH is the bitrate when given: 1 000 000 meets 1000 kbit/s exactly.
        #expect(video.choose(.kbps(1000))?.variant.bandwidth == 1_280_000)
        #expect(video.choose(.kbps(1001))?.variant.bandwidth == 2_560_000)
        #expect(video.choose(.worst)?.variant.bandwidth == 1_280_000)
    }

    @Test func m02SpaceAfterCommaInAttributes() throws {
        let master = try Self.master("m02-globocom-variant-playlist")
        #expect(master.variants.count == 4)
        #expect(master.variants[0].uri.absoluteString == "http://example.com/low.m3u8")
        #expect(master.variants[0].bandwidth == 1_280_000)
        #expect(master.variants[3].bandwidth == 65000)
        #expect(master.variants[3].codecs == "mp4a.40.5,avc1.42801e")
        #expect(!master.variants[3].isAudioOnly)
    }

    @Test func m03ResolutionAndRelativeURIsWithQueries() throws {
        let master = try Self.master("m03-globocom-variant-with-resolution")
        #expect(master.variants.map(\.resolution) == ["512x288", nil])
        #expect(master.variants.map(\.uri.absoluteString)
            == ["http://host/dir/index_0_av.m3u8?e=b471643725c47acd", "http://host/dir/index_0_a.m3u8?e=b471643725c47acd"])
        #expect(master.variants.map(\.isAudioOnly) == [false, true])
        #expect(master.choose(.kbps(500))?.variant.bandwidth == 45000, "only audio-only variants are candidates")
    }

    @Test func m04AudioRenditionWithoutURIIsInsideTheVariant() throws {
        let master = try Self.master("m04-globocom-audio-only-master-media-without-uri")
        #expect(master.renditions.count == 1)
        #expect(master.renditions[0].uri == nil)
        #expect(master.renditions[0].channels == "2")
        #expect(master.renditions[0].type == .audio && master.renditions[0].isDefault && master.renditions[0].language == "en")
        let variant = try #require(master.variants.first)
        #expect(master.variants.count == 1)
        #expect(variant.bandwidth == 364_000 && variant.averageBandwidth == 331_000)
        #expect(variant.codecs == "mp4a.40.2" && variant.audioGroup == "audio-aacl-312" && variant.isAudioOnly)
        #expect(variant.uri.absoluteString == "http://host/dir/ch001-audio_312640_eng=312000.m3u8")
        let choice = try #require(master.choose(.kbps(128)))
        #expect(choice.variant == variant && choice.audio == nil)
    }

    @Test func m05AlternateAudioIsChosenByLanguage() throws {
        let master = try Self.master("m05-videojs-alternate-audio")
        #expect(master.renditions.map(\.name) == ["English", "Français", "Espanol"])
        #expect(master.renditions.map(\.language) == ["eng", "fre", "sp"])
        #expect(master.renditions.map(\.isDefault) == [true, false, false])
        #expect(master.renditions.allSatisfy { $0.autoselect })
        #expect(master.variants.map(\.bandwidth) == [195_023, 591_680])
        #expect(master.variants.map(\.codecs) == ["avc1.42e00a,mp4a.40.2", "avc1.42e01e,mp4a.40.2"])
        let english = try #require(master.choose(.best))
        #expect(english.variant.bandwidth == 591_680)
        #expect(english.audio?.uri?.absoluteString == "http://host/dir/eng/prog_index.m3u8")
        #expect(master.choose(.best, audioLanguage: "fre")?.audio?.name == "Français")
        #expect(master.choose(.best, audioLanguage: "en")?.audio?.name == "English")
        #expect(master.choose(.best, audioLanguage: "de")?.audio?.name == "English", "no match: the default")
    }

    @Test func m06CommentsBeforeTheHeaderAndIFrameStreams() throws {
        let master = try Self.master("m06-grafov-master-with-hlsv7")
        #expect(master.variants.count == 9)
        #expect(master.iFrameStreamCount == 9)
        let v720 = try #require(master.variants.first { $0.uri.absoluteString == "http://host/dir/sdr_720/prog_index.m3u8" })
        #expect(v720.bandwidth == 3_971_374 && v720.averageBandwidth == 2_778_321)
        #expect(v720.codecs == "hvc1.2.4.L123.B0" && v720.resolution == "1280x720" && v720.frameRate == 23.976)
    }

    @Test func m07RedundantVariantsAreOneLevel() throws {
        let master = try Self.master("m07-hlsjs-master-10-levels-backup-urls", base: URL(string: "http://www.dailymotion.com")!)
        #expect(master.variants.map(\.bandwidth)
            == [836_280, 836_280, 246_440, 246_440, 460_560, 460_560, 2_149_280, 2_149_280, 6_221_600, 6_221_600])
        #expect(master.variants.map(\.name) == ["480", "480", "240", "240", "380", "380", "720", "720", "1080", "1080"])
        // Of two equal levels on two hosts, the first listed.
        let best = try #require(master.choose(.best)?.variant)
        #expect(best.uri.host == "proxy-62.dailymotion.com" && best.bandwidth == 6_221_600)
        #expect(best.uri.fragment == "cell=core")
        #expect(master.choose(.worst)?.variant.uri.host == "proxy-62.dailymotion.com")
    }

    @Test func e08StrayURILinesAreNotVariants() throws {
        let master = try Self.master("e08-m3u8rs-master-stray-uri-lines-no-final-newline")
        #expect(master.variants.map(\.bandwidth) == [395_000, 963_000, 1_695_000])
        #expect(master.variants.map(\.uri.lastPathComponent) == ["01.m3u8", "02.m3u8", "03.m3u8"])
        #expect(master.variants.allSatisfy { $0.audioGroup == "Audio1" })
        #expect(master.renditions.count == 1 && master.iFrameStreamCount == 3)
        #expect(master.choose(.worst)?.audio?.uri?.absoluteString == "http://host/dir/A1.m3u8")
    }

    // MARK: Media playlists

    @Test func p01LongVODWithTitles() throws {
        let media = try Self.media("p01-grafov-wowza-vod-522-segments")
        #expect(media.version == 3 && media.targetDuration == 12 && media.hasEndList && !media.isLive)
        #expect(media.segments.count == 522)
        #expect(media.segments.map(\.sequence) == Array(1...522))
        #expect(media.segments.prefix(3).map(\.title) == ["Title 1", "Title 2", nil])
        #expect(abs(media.totalDuration - 6259.2) < 1e-6)
        #expect(media.segments[0].uri.query?.hasPrefix("wowzasessionid=") == true)
    }

    @Test func p03TitleIsSplitAtTheFirstComma() throws {
        let media = try Self.media("p03-globocom-title-with-comma")
        #expect(media.segments.map(\.title) == ["Title with a comma, end"])
        #expect(media.targetDuration == nil && media.segments[0].duration == 5220)
    }

    @Test func p04ProgramDateTimeWithOffset() throws {
        let media = try Self.media("p04-grafov-program-date-time-tz-offset")
        #expect(media.targetDuration == 15 && media.hasEndList && media.mediaSequence == 0)
        #expect(media.segments.count == 4)
        #expect(media.segments[0].programDateTime == ISO8601DateFormatter().date(from: "2018-12-31T01:47:22Z"))
        #expect(abs(media.totalDuration - 56.232) < 1e-6)
        #expect(media.segments[0].duration == 14.666)
    }

    @Test func p05SlidingWindowIsLive() throws {
        let media = try Self.media("p05-globocom-sliding-window-live")
        #expect(media.isLive && !media.hasEndList)
        #expect(media.targetDuration == 8 && media.mediaSequence == 2680)
        #expect(media.segments.map(\.sequence) == [2680, 2681, 2682])
        #expect(media.segments.map(\.uri.absoluteString) == (2680...2682).map { "https://priv.example.com/fileSequence\($0).ts" })
        #expect(media.segments.map(\.duration) == [8, 8, 8])
    }

    @Test func u01RelativeURIsResolveByRFC3986() throws {
        let media = try Self.media("u01-globocom-relative-uris", base: URL(string: "http://localhost:8112/path/to/relative-playlist.m3u8")!)
        #expect(media.segments.map(\.uri.absoluteString) == [
            "http://localhost:8112/entire1.ts", "http://localhost:8112/path/entire2.ts", "http://localhost:8112/entire3.ts",
            "http://localhost:8112/path/to/entire4.ts", "http://localhost:8112/path/to/entire5.ts",
            // RFC 3986 §5.2.4 keeps the empty segment (globocom collapses it).
            "http://localhost:8112/path/to//entire6.ts",
        ])
        let key = try #require(media.segments[0].key)
        #expect(key.uri?.absoluteString == "http://localhost:8112/path/key.bin")
        #expect(key.ivHex == "10ef8f758ca555115584bb5b3c687f52" && key.ivIsExplicit)
        #expect(media.segments.count == 6 && media.totalDuration == 6 * 5220)
    }

    @Test func u02AbsoluteAndSchemeRelativeURIs() throws {
        let media = try Self.media("u02-videojs-absolute-and-scheme-relative-uris", base: URL(string: "https://cdn.test/x/p.m3u8")!)
        #expect(media.segments.map(\.uri.absoluteString) == ["http://example.com/00001.ts", "https://example.com/00002.ts",
                                                            "https://example.com/00003.ts", "http://example.com/00004.ts"])
        #expect(media.playlistType == .vod && media.totalDuration == 40)
    }

    @Test func aBaseWithAFragmentResolvesWithoutIt() throws {
        let text = "#EXTM3U\n#EXTINF:4,\nseg.ts\n#EXT-X-ENDLIST"
        guard case .media(let media) = try PlaylistParser.parse(text, url: URL(string: "http://h/a/list.m3u8#cell=core")!) else {
            Issue.record("not media")
            return
        }
        #expect(media.segments.map(\.uri.absoluteString) == ["http://h/a/seg.ts"])
    }

    // MARK: Keys

    @Test func k01KeyRotationAndImplicitIVs() throws {
        let media = try Self.media("k01-videojs-rfc8216-8.3-key-rotation-iv-none")
        #expect(media.mediaSequence == 7794 && media.targetDuration == 15 && media.isLive)
        #expect(media.segments.count == 6)
        #expect(media.segments.map { $0.key?.uri?.absoluteString } == [
            "https://priv.example.com/key.php?r=52", "https://priv.example.com/key.php?r=52", "https://priv.example.com/key.php?r=52",
            "https://priv.example.com/key.php?r=53", "https://priv.example.com/key.php?r=54", nil,
        ])
        #expect(media.segments.prefix(4).map { $0.key?.ivHex } == (7794...7797).map(Self.hex))
        #expect(media.segments.prefix(4).allSatisfy { $0.key?.ivIsExplicit == false })
        #expect(media.segments[4].key?.ivHex == "00000000000000000000014bb69d61e4")
        #expect(abs(media.totalDuration - 75.166) < 1e-9)
        #expect(throws: Never.self) { try media.checkDecryptable() }
    }

    @Test func k02UppercaseIVPrefixAndAKeyOnAnAbsolutePath() throws {
        let media = try Self.media("k02-globocom-aes128-relative-key-uppercase-0X-iv", base: URL(string: "http://h/a/b/list.m3u8")!)
        #expect(media.segments.count == 6 && media.mediaSequence == 82400 && media.version == 2 && !media.hasEndList)
        #expect(media.segments.allSatisfy { $0.key?.method == .aes128 && $0.key?.uri?.absoluteString == "http://h/hls-key/key.bin" })
        #expect(media.segments.allSatisfy { $0.key?.ivHex == "10ef8f758ca555115584bb5b3c687f52" })
        // `../` above the root stays at the root (RFC 3986 §5.2.4).
        #expect(media.segments[0].uri.absoluteString == "http://h/hls/streamNum82400.ts")
    }

    @Test func k03ClearThenEncryptedThenNoneThenAnotherKey() throws {
        let media = try Self.media("k03-globocom-clear-aes-none-aes")
        #expect(media.segments.count == 10)
        #expect(media.segments.map { $0.key?.uri?.path } == [nil, nil] + Array(repeating: "/hls-key/key.bin", count: 4)
            + [nil, nil, "/hls-key/key2.bin", "/hls-key/key2.bin"])
        #expect(media.segments[8].key?.ivHex == "cafe8f758ca555115584bb5b3c687f52")
        // The same URI clear and encrypted: segments are told apart by sequence number.
        #expect(media.segments[0].uri == media.segments[2].uri && media.segments[0].sequence != media.segments[2].sequence)
    }

    @Test func k06SampleAESWithFairPlayIsRefusedByName() throws {
        let media = try Self.media("k06-globocom-sample-aes-fairplay-skd")
        let key = try #require(media.segments.first?.key)
        #expect(key.method == .sampleAES)
        #expect(key.keyFormat == "com.apple.streamingkeydelivery" && key.keyFormatVersions == "1")
        #expect(throws: PlaylistError.unsupportedEncryption(method: "SAMPLE-AES", keyFormat: "com.apple.streamingkeydelivery")) {
            try media.checkDecryptable()
        }
    }

    @Test func e07AShortIVIsLeftPadded() throws {
        let media = try Self.media("e07-m3u8rs-short-iv-live")
        #expect(media.segments.count == 15 && media.mediaSequence == 338_559 && media.isLive)
        #expect(media.segments.allSatisfy { $0.key?.ivHex == "0000000000b059217aa2649ce170b734" })
        #expect(media.segments.map(\.title) == (338_559...338_573).map { "\($0)" })
        #expect(media.segments.allSatisfy { $0.duration == 2.002 })
    }

    // MARK: Byte ranges and maps

    @Test func b01PackedAudioByteRanges() throws {
        let media = try Self.media("b01-m3u8rs-audio-aac-byteranges")
        #expect(media.segments.count == 8 && media.playlistType == .vod && !media.isLive)
        #expect(media.segments.map { $0.byteRange!.offset } == [0, 86920, 223_515, 360_082, 497_036, 634_152, 770_922, 908_141])
        #expect(media.segments.last?.byteRange.map { $0.offset + $0.length } == 1_045_273)
        #expect(abs(media.totalDuration - 79.99275) < 1e-9)
    }

    @Test func b02OffsetlessRangesContinue() throws {
        let media = try Self.media("b02-hlsjs-byterange-without-offset", base: URL(string: "http://dummy.com/playlist.m3u8")!)
        #expect(media.segments.map(\.byteRange) == [ByteRange(length: 140_060, offset: 803_136),
                                                   ByteRange(length: 96256, offset: 943_196),
                                                   ByteRange(length: 143_068, offset: 1_039_452)])
        #expect(media.segments.allSatisfy { $0.uri.absoluteString == "http://dummy.com/lo007ts" && $0.duration == 1_000_000 })
    }

    @Test func b03RangeBeforeEXTINFAndAnOffsetlessThird() throws {
        let media = try Self.media("b03-grafov-byterange-without-offset")
        // RFC 8216 §4.3.2.2, not grafov's 0: the third continues after the second.
        #expect(media.segments.map(\.byteRange) == [ByteRange(length: 75232, offset: 0), ByteRange(length: 82112, offset: 752_321),
                                                   ByteRange(length: 69864, offset: 834_433)])
        #expect(media.segments.map(\.sequence) == [0, 1, 2])
    }

    @Test func b04OffsetlessRangeAcrossAnotherURIContinues() throws {
        let media = try Self.media("b04-videojs-byterange-offsetless-on-other-uri")
        #expect(media.segments.count == 17)
        #expect(media.segments[0].byteRange == nil)
        #expect(media.segments[1].byteRange == ByteRange(length: 587_500, offset: 522_828))
        #expect(media.segments[2].byteRange == ByteRange(length: 713_084, offset: 1_110_328))
        #expect(media.segments[16].byteRange == ByteRange(length: 44556, offset: 8_353_216))
        #expect(abs(media.totalDuration - 161.4167) < 1e-6)
    }

    @Test func x01MapWithAByteRangeTakesNoSequenceNumber() throws {
        let media = try Self.media("x01-videojs-fmp4-map-byterange")
        let map = MediaMap(uri: URL(string: "http://host/dir/main.mp4")!, byteRange: ByteRange(length: 720, offset: 0))
        #expect(media.segments.map(\.map) == [map, map])
        #expect(media.segments.map(\.sequence) == [1, 2])
        #expect(media.segments.map(\.byteRange) == [ByteRange(length: 5_666_510, offset: 720), ByteRange(length: 5_861_577, offset: 5_667_230)])
        #expect(media.segments.allSatisfy { $0.duration == 6.006 && $0.title == nil })
        #expect(media.version == 7 && media.independentSegments)
    }

    @Test func x03MultipleMapsAndAnEncryptedMapGetsTheNextSegmentsIV() throws {
        let media = try Self.media("x03-globocom-multiple-map-with-key")
        #expect(media.segments.map { $0.map?.uri.lastPathComponent } == ["init1.mp4", "init1.mp4", "init3.mp4"])
        #expect(media.segments.map(\.sequence) == [1, 2, 3])
        #expect(media.segments[0].map?.key?.ivHex == Self.hex(1))
        #expect(media.segments[2].map?.key?.ivHex == Self.hex(3))
        #expect(media.segments[0].map == media.segments[1].map)
        #expect(media.segments.map { $0.key?.ivHex } == [1, 2, 3].map(Self.hex))
    }

    // MARK: Discontinuities

    @Test func d01DiscontinuityAndProgramDateTime() throws {
        let media = try Self.media("d01-globocom-discontinuity-with-pdt")
        #expect(media.segments.count == 8 && media.mediaSequence == 50116 && media.isLive)
        let start = try #require(ISO8601DateFormatter().date(from: "2014-08-13T13:36:33Z"))
        #expect(media.segments[0].programDateTime == start)
        #expect(media.segments[1].programDateTime == start.addingTimeInterval(3))
        #expect(media.segments.map(\.discontinuity) == [false, false, false, false, false, true, false, false])
        #expect(media.segments[5].programDateTime == ISO8601DateFormatter().date(from: "2014-08-13T13:36:55Z"))
        #expect(media.segments[6].programDateTime == ISO8601DateFormatter().date(from: "2014-08-13T13:36:58Z"))
    }

    @Test func d02DoubleHeaderAndDiscontinuityCounter() throws {
        let media = try Self.media("d02-hlsjs-discontinuity-double-extm3u", base: URL(string: "http://video.example.com/disc.m3u8")!)
        #expect(media.segments.count == 5 && media.totalDuration == 45)
        #expect(media.segments.map(\.discontinuitySequence) == [0, 0, 0, 1, 1])
        #expect(media.segments[3].discontinuity && media.segments[3].uri.absoluteString == "http://video.example.com/0005.ts")
    }

    // MARK: Line ends and malformed input

    @Test func e01CRLF() throws {
        let media = try Self.media("e01-globocom-simple-playlist-crlf")
        #expect(media.targetDuration == 5220)
        #expect(media.segments.map(\.uri.absoluteString) == ["http://media.example.com/entire.ts"])
        #expect(media.segments.map(\.duration) == [5220])
    }

    @Test func e03CommalessEXTINF() throws {
        let media = try Self.media("e03-globocom-commaless-extinf")
        #expect(media.segments.count == 1 && media.segments[0].duration == 5220 && media.segments[0].title == nil)
    }

    @Test func e04NoHeaderIsNotAPlaylist() throws {
        #expect(throws: PlaylistError.notAPlaylist(firstLine: "#EXT-X-TARGETDURATION:10")) {
            try PlaylistParser.parse(try Self.text("e04-videojs-missing-extm3u"), url: Self.base)
        }
    }

    @Test func e05AURIWithoutEXTINFIsNoSegment() throws {
        let media = try Self.media("e05-videojs-missing-extinf")
        #expect(media.segments.count == 2 && media.totalDuration == 20)
        #expect(media.segments.map(\.sequence) == [0, 1])
    }

    @Test func e09ADanglingEXTINFIsDropped() throws {
        let media = try Self.media("e09-hlsjs-dangling-extinf-before-endlist", base: URL(string: "http://h/video/107/282/p.m3u8")!)
        #expect(media.segments.count == 5 && media.totalDuration == 30 && media.hasEndList)
        #expect(media.segments[4].uri.absoluteString == "http://h/video/107/282/chop/segment-5.ts")
        #expect(media.segments.allSatisfy { $0.title == nil })
    }
}
