import Testing
@testable import Downloads

/// File names for downloaded songs: safe everywhere, every letter kept.
struct SongFileNameTests {
    @Test func artistDashTitleWithTheExtension() {
        #expect(SongFileName.make(artist: "周杰伦", title: "晴天", extension: "mp3") == "周杰伦 - 晴天.mp3")
        #expect(SongFileName.make(artist: "아이유 (IU)", title: "밤편지", extension: "M4A") == "아이유 (IU) - 밤편지.m4a")
        #expect(SongFileName.make(artist: "", title: "Solo", extension: "ogg") == "Solo.ogg")
        #expect(SongFileName.make(artist: "", title: "", extension: "") == "Unknown.mp3")
    }

    @Test func charactersSomeFileSystemRefusesBecomeUnderscores() {
        #expect(SongFileName.make(artist: "AC/DC", title: "What? <Live>: \"1979\" | *x*", extension: "mp3")
                == "AC_DC - What_ _Live__ _1979_ _ _x_.mp3")
        #expect(SongFileName.make(artist: "a\u{0}b\tc\nd", title: "t", extension: "mp3") == "a_b_c_d - t.mp3")
        #expect(SongFileName.make(artist: "...hidden", title: "end. ", extension: "mp3") == "hidden - end.mp3")
        #expect(SongFileName.make(artist: "", title: "con", extension: "mp3") == "_con.mp3")
        #expect(SongFileName.make(artist: "  many   spaces ", title: "x", extension: "mp3") == "many spaces - x.mp3")
    }

    @Test func longNamesAreCutAtACharacterWithinTheByteLimit() {
        let title = String(repeating: "音", count: 100)  // 300 bytes of UTF-8
        let name = SongFileName.make(artist: "歌手", title: title, extension: "flac")
        #expect(name.utf8.count <= SongFileName.maxBytes)
        #expect(name.hasPrefix("歌手 - 音音"))
        #expect(name.hasSuffix("音.flac"))
    }

    @Test func numberedNamesAndMediaExtensions() {
        #expect(SongFileName.numbered("A - B.mp3", 1) == "A - B.mp3")
        #expect(SongFileName.numbered("A - B.mp3", 2) == "A - B (2).mp3")
        #expect(SongFileName.mediaExtension(of: "http://mr1.doubanio.com/x/p82943_128k.mp4?k=1") == "mp4")
        #expect(SongFileName.mediaExtension(of: "http://host/stream") == nil)
        #expect(SongFileName.mediaExtension(of: "http://host/page.html") == nil)
    }
}
