import Radio
import Testing
@testable import TerminalUI
@testable import TUIHarness

/// The now-playing screen with Hangul: precomposed syllables are two columns wide, so a
/// title is cut by display columns (with its heart kept) and the bar and clock stay
/// aligned at 40, 80 and 120 columns.
@Suite struct NowPlayingHangulTests {
    @Test func koreanAt40Columns() {
        NowPlayingViewTests.check(Fixtures.korean, width: 40, expected: """
            | 한국어 채널                    playing |
            |                                        |
            |  밤편지 (Through the Night) 🌙 어… ♡   |
            |  아이유 (IU)                           |
            |  팔레트 (2017) · 256 kbps              |
            |                                        |
            |  ━━━━━━━━━──────────────  1:40 / 4:13  |
            |  vol 70%  ·  1 queued                  |
            |                                        |
            |                                        |
            |  2 reports wait to be sent.            |
            |  space toggle  n skip  ? help  q quit  |
            """)
    }

    @Test func koreanAt80Columns() {
        NowPlayingViewTests.check(Fixtures.korean, width: 80, expected: """
            | 한국어 채널                                                            playing |
            |                                                                                |
            |  밤편지 (Through the Night) 🌙 어쿠스틱 ♡                                      |
            |  아이유 (IU)                                                                   |
            |  팔레트 (2017) · 256 kbps                                                      |
            |                                                                                |
            |  ━━━━━━━━━━━━━━━━━━━━━━━━───────────────────────────────────────  1:40 / 4:13  |
            |  vol 70%  ·  1 queued                                                          |
            |                                                                                |
            |                                                                                |
            |  2 reports wait to be sent.                                                    |
            |  space toggle  n skip  l like  b trash  c channels  ? help  q quit             |
            """)
    }

    @Test func koreanAt120Columns() {
        NowPlayingViewTests.check(Fixtures.korean, width: 120, expected: """
            | 한국어 채널                                                                                                    playing |
            |                                                                                                                        |
            |  밤편지 (Through the Night) 🌙 어쿠스틱 ♡                                                                              |
            |  아이유 (IU)                                                                                                           |
            |  팔레트 (2017) · 256 kbps                                                                                              |
            |                                                                                                                        |
            |  ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━───────────────────────────────────────────────────────────────  1:40 / 4:13  |
            |  vol 70%  ·  1 queued                                                                                                  |
            |                                                                                                                        |
            |                                                                                                                        |
            |  2 reports wait to be sent.                                                                                            |
            |  space toggle  n skip  l like  b trash  d download  c channels  ? help  q quit                                         |
            """)
    }

    @Test func aHangulTitleIsCutBetweenSyllablesNeverThroughOne() {
        // "밤편지 어쿠스틱" is 15 columns. At 10, "밤편지 어" (9) and the ellipsis fill it. At 9
        // the next syllable would need the tenth column, so it goes whole (no half syllable),
        // the space before the ellipsis goes too, and padding keeps the 9 columns.
        #expect(DisplayWidth.truncate("밤편지 어쿠스틱", to: 10) == "밤편지 어…")
        #expect(DisplayWidth.truncate("밤편지 어쿠스틱", to: 9) == "밤편지…  ")
        #expect(DisplayWidth.width(of: DisplayWidth.truncate("밤편지 어쿠스틱", to: 9)) == 9)
    }
}
