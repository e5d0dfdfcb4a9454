import Testing
@testable import TerminalUI

/// Column widths and cutting, under whatever locale the test process has (a Swift test
/// binary starts in the "C" locale, which is exactly the case glibc gets wrong alone).
@Suite struct DisplayWidthTests {
    @Test func asciiIsOneColumnPerCharacter() {
        #expect(DisplayWidth.width(of: "") == 0)
        #expect(DisplayWidth.width(of: "Hello, mhz!") == 11)
    }

    @Test func cjkIsTwoColumnsPerCharacter() {
        #expect(DisplayWidth.width(of: "中文") == 4)
        #expect(DisplayWidth.width(of: "日本語") == 6)
        #expect(DisplayWidth.width(of: "한국어") == 6)
        #expect(DisplayWidth.width(of: "周杰伦 - 晴天") == 13)
        #expect(DisplayWidth.width(of: "ＡＢ") == 4, "full-width Latin")
    }

    @Test func emojiWidths() {
        #expect(DisplayWidth.width(of: "🎵") == 2)
        // Each scalar counts, as in ncurses: thumbs up (2) + skin tone modifier (2).
        #expect(DisplayWidth.width(of: "👍🏽") == 4)
        #expect(DisplayWidth.width(of: Character("👍🏽")) == 4)
        // A flag is two regional indicators of one column each.
        #expect(DisplayWidth.width(of: "🇯🇵") == 2)
        #expect(DisplayWidth.width(of: "🇨🇳🇰🇷") == 4)
    }

    @Test func combiningMarksAndControlsTakeNoColumns() {
        #expect(DisplayWidth.width(of: "e\u{301}") == 1)
        #expect(DisplayWidth.width(of: "Cafe\u{301} ") == 5)
        #expect(DisplayWidth.width(of: "a\u{1B}b\u{7F}c\u{85}") == 3)
        #expect(DisplayWidth.width(of: "…♥♡") == 3)
    }

    @Test func fallbackTableAgreesWithWcwidth() {
        let samples = "Aé中文日本語한국어🎵👍🏽🇯🇵e\u{301}…♥♡━─ＡＢ\u{3000}"
        for scalar in samples.unicodeScalars {
            #expect(EastAsianWidth.width(of: scalar) == DisplayWidth.width(of: scalar),
                    "U+\(String(scalar.value, radix: 16, uppercase: true))")
        }
    }

    @Test func truncateLeavesFittingTextAlone() {
        #expect(DisplayWidth.truncate("晴天", to: 4) == "晴天")
        #expect(DisplayWidth.truncate("abc", to: 10) == "abc")
    }

    @Test func truncateCutsAtExactWidthWithEllipsis() {
        #expect(DisplayWidth.truncate("Hello, world", to: 8) == "Hello,… ")
        #expect(DisplayWidth.truncate("abcdefghij", to: 5) == "abcd…")
        #expect(DisplayWidth.truncate("中文字幕", to: 7) == "中文字…")
        #expect(DisplayWidth.truncate("abcdef", to: 1) == "…")
        #expect(DisplayWidth.truncate("abcdef", to: 0) == "")
    }

    @Test func truncatePadsWhenAWideCharacterDoesNotFit() {
        // 6 columns: "中文" (4) + "字" would need 2 more before "…", so one space fills.
        let cut = DisplayWidth.truncate("中文字幕", to: 6)
        #expect(cut == "中文… ")
        #expect(DisplayWidth.width(of: cut) == 6)
    }

    @Test func truncateNeverSplitsAGraphemeCluster() {
        #expect(DisplayWidth.truncate("👍🏽👍🏽", to: 6) == "👍🏽… ")
        #expect(DisplayWidth.truncate("🇯🇵🇨🇳🇰🇷", to: 4) == "🇯🇵… ")
        #expect(DisplayWidth.truncate("e\u{301}e\u{301}e\u{301}", to: 2) == "e\u{301}…")
        for columns in 1...12 {
            let cut = DisplayWidth.truncate("日本語の歌🎵👍🏽 mix", to: columns)
            #expect(DisplayWidth.width(of: cut) == columns, "at \(columns) columns: \(cut)")
        }
    }

    @Test func padFillsToExactColumns() {
        #expect(DisplayWidth.pad("晴天", to: 7) == "晴天   ")
        #expect(DisplayWidth.pad("abc", to: 3) == "abc")
        #expect(DisplayWidth.pad("周杰伦 晴天", to: 8) == "周杰伦… ")
        #expect(DisplayWidth.padLeading("1:05", to: 6) == "  1:05")
        #expect(DisplayWidth.spread("left", "right", to: 12) == "left   right")
        #expect(DisplayWidth.spread("长长的左边", "右", to: 8) == "长长… 右")
    }

    @Test func sanitizeTurnsBreaksIntoSpacesAndDropsControls() {
        #expect(DisplayWidth.sanitize("a\nb\tc\u{1B}[31md") == "a b c[31md")
        #expect(DisplayWidth.pad("x\ny", to: 4) == "x y ")
    }
}
