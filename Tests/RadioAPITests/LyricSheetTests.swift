import Foundation
import RadioAPI
import Testing

/// LRC as Douban's lyric call and `.lrc` files carry it.
@Suite("LRC lyrics")
struct LyricSheetTests {
    @Test("time tags in every form, several on one line, sorted by time, ID tags read")
    func timedLines() {
        let sheet = LyricSheet(parsing: """
            [ti:Song Title]
            [ar:Some Artist]
            [al:An Album]
            [by:someone]
            [00:12.30][01:02.5]chorus
            [00:01]first
            [00:05.123] second, spaced 
            [00:07:45]colon hundredths
            [00:09.00]
            not a tagged line in synced lyrics
            """)
        #expect(sheet.title == "Song Title" && sheet.artist == "Some Artist" && sheet.album == "An Album")
        #expect(sheet.isSynced && sheet.plainLines.isEmpty)
        #expect(sheet.lines == [
            .init(time: 1, text: "first"),
            .init(time: 5.123, text: "second, spaced"),
            .init(time: 7.45, text: "colon hundredths"),
            .init(time: 9, text: ""),
            .init(time: 12.3, text: "chorus"),
            .init(time: 62.5, text: "chorus"),
        ])
    }

    @Test("[offset:] in ms: positive shows lines earlier, negative later, never before 0")
    func offset() {
        let earlier = LyricSheet(parsing: "[offset:+500]\n[00:02.00]a\n[00:00.20]b")
        #expect(earlier.offsetMilliseconds == 500)
        #expect(earlier.lines == [.init(time: 0, text: "b"), .init(time: 1.5, text: "a")])
        let later = LyricSheet(parsing: "[offset:-250]\n[00:02.00]a")
        #expect(later.lines == [.init(time: 2.25, text: "a")])
    }

    @Test("enhanced LRC word tags are read and left out of the text; other angle brackets stay")
    func wordTags() {
        let sheet = LyricSheet(parsing: "[00:01.00]<00:01.00>one <00:01.50>two <00:02.00>three <b>\n")
        #expect(sheet.lines == [.init(time: 1, text: "one two three <b>")])
    }

    @Test("text without a time tag is unsynced lyrics: its lines in order, ID tags and blank ends left out")
    func unsynced() {
        let sheet = LyricSheet(parsing: "\n[ti:Plain]\n第一行\n\nsecond [not a tag]\n\n")
        #expect(!sheet.isSynced && !sheet.isEmpty)
        #expect(sheet.title == "Plain")
        #expect(sheet.plainLines == ["第一行", "", "second [not a tag]"])
        #expect(LyricSheet(parsing: "").isEmpty)
        #expect(LyricSheet(parsing: "[ar:x]\n").isEmpty)
    }

    @Test("unsynced text: CRLF and a byte-order mark, indentation, word tags, [offset:] read but moving nothing; a [word: …] that is no LRC tag is text")
    func unsyncedEdges() {
        let sheet = LyricSheet(parsing: "\u{FEFF}[offset:+500]\r\n[Chorus: Both]\r\n  <00:01.00>la <00:01.50>la\r\n"
            + "[by:someone]\r\n[length: 03:20]\r\n夜曲, 第二行\r\n")
        #expect(!sheet.isSynced)
        #expect(sheet.offsetMilliseconds == 500)
        #expect(sheet.plainLines == ["[Chorus: Both]", "la la", "夜曲, 第二行"])
        #expect(sheet.lineIndex(at: 10) == nil)
        // One time tag anywhere makes the sheet synced: untimed lines are then left out.
        let mixed = LyricSheet(parsing: "a plain line\n[00:03.00]timed\n[Chorus: Both]")
        #expect(mixed.lines == [.init(time: 3, text: "timed")] && mixed.plainLines.isEmpty)
    }

    @Test("the current line is the last begun: none before the first, the last after the end")
    func currentLine() {
        let sheet = LyricSheet(parsing: "[00:01.00]a\n[00:02.00]b\n[00:02.00]c\n[00:04.00]d")
        #expect(sheet.lineIndex(at: 0.99) == nil)
        #expect(sheet.lineIndex(at: 1) == 0)
        #expect(sheet.lineIndex(at: 1.5) == 0)
        #expect(sheet.lineIndex(at: 2) == 2)
        #expect(sheet.lineIndex(at: 100) == 3)
        #expect(LyricSheet(parsing: "plain").lineIndex(at: 5) == nil)
    }

    @Test("the lyric request and its answers: Douban's shape, its rate limit (code 1998), a page")
    func endpointAndDecoding() throws {
        let request = LyricEndpoint(baseURL: URL(string: "http://127.0.0.1:8080/")!).lyric(sid: "12 3", ssid: "ab&c")
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "http://127.0.0.1:8080/v2/fm/lyric")
        #expect(request.body == Data("sid=12%203&ssid=ab%26c".utf8))
        #expect(try APIDecoder.lyric(Data(#"{"lyric":"[00:01.00]x","name":"N","sid":123}"#.utf8))
            == SongLyric(lyric: "[00:01.00]x", name: "N", sid: "123"))
        #expect(throws: APIError.refused(code: 1998, message: "rate_limit_exceeded2")) {
            try APIDecoder.lyric(Data(#"{"msg":"rate_limit_exceeded2","code":1998,"request":"POST /v2/fm/lyric"}"#.utf8))
        }
        #expect(throws: APIError.notJSON(prefix: "<html>")) { try APIDecoder.lyric(Data("<html>".utf8)) }
    }
}
