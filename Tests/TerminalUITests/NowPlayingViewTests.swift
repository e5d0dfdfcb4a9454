import Foundation
import Radio
import Testing
@testable import TerminalUI
@testable import TUIHarness

/// The now-playing screen as text: full expected output for three snapshots at 40, 80
/// and 120 columns (12 rows), and the rules every frame must keep at any size.
///
/// Expected screens are written between `|` bars so trailing spaces are visible; every
/// line must be exactly as wide as the screen.
@Suite struct NowPlayingViewTests {
    /// Splits a bar-framed board into its lines (the bars are not part of the text).
    static func board(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(line.dropFirst().dropLast())
        }
    }

    static func check(_ snapshot: RadioSnapshot, width: Int, expected: String,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        let rendered = NowPlayingView.render(snapshot, width: width, height: 12)
        #expect(rendered == board(expected), sourceLocation: sourceLocation)
        for line in rendered {
            #expect(DisplayWidth.width(of: line) == width, "\(line)", sourceLocation: sourceLocation)
        }
    }

    @Test func asciiAt40Columns() {
        Self.check(Fixtures.ascii, width: 40, expected: """
            | Jazz FM                        playing |
            |                                        |
            |  So What ♥                             |
            |  Miles Davis                           |
            |  Kind of Blue (1959) · 192 kbps        |
            |                                        |
            |  ━━─────────────────────  1:05 / 9:22  |
            |  vol 80%  ·  3 queued                  |
            |                                        |
            |                                        |
            |                                        |
            |  space toggle  n skip  ? help  q quit  |
            """)
    }

    @Test func asciiAt80Columns() {
        Self.check(Fixtures.ascii, width: 80, expected: """
            | Jazz FM                                                                playing |
            |                                                                                |
            |  So What ♥                                                                     |
            |  Miles Davis                                                                   |
            |  Kind of Blue (1959) · 192 kbps                                                |
            |                                                                                |
            |  ━━━━━━━────────────────────────────────────────────────────────  1:05 / 9:22  |
            |  vol 80%  ·  3 queued                                                          |
            |                                                                                |
            |                                                                                |
            |                                                                                |
            |  space toggle  n skip  l like  b trash  c channels  ? help  q quit             |
            """)
    }

    @Test func asciiAt120Columns() {
        Self.check(Fixtures.ascii, width: 120, expected: """
            | Jazz FM                                                                                                        playing |
            |                                                                                                                        |
            |  So What ♥                                                                                                             |
            |  Miles Davis                                                                                                           |
            |  Kind of Blue (1959) · 192 kbps                                                                                        |
            |                                                                                                                        |
            |  ━━━━━━━━━━━────────────────────────────────────────────────────────────────────────────────────────────  1:05 / 9:22  |
            |  vol 80%  ·  3 queued                                                                                                  |
            |                                                                                                                        |
            |                                                                                                                        |
            |                                                                                                                        |
            |  space toggle  n skip  l like  b trash  d download  c channels  ? help  q quit                                         |
            """)
    }

    @Test func chineseAt40Columns() {
        Self.check(Fixtures.chinese, width: 40, expected: """
            | 华语MHz                         paused |
            |                                        |
            |  晴天 ♡                                |
            |  周杰伦                                |
            |  叶惠美 (2003) · 320 kbps              |
            |                                        |
            |  ━━━━━──────────────────  1:05 / 4:29  |
            |  vol 55%  ·  2 queued                  |
            |                                        |
            |  Station unreachable (connection       |
            |  refused) — check --server or your n…  |
            |  space toggle  n skip  ? help  q quit  |
            """)
    }

    @Test func chineseAt80Columns() {
        Self.check(Fixtures.chinese, width: 80, expected: """
            | 华语MHz                                                                 paused |
            |                                                                                |
            |  晴天 ♡                                                                        |
            |  周杰伦                                                                        |
            |  叶惠美 (2003) · 320 kbps                                                      |
            |                                                                                |
            |  ━━━━━━━━━━━━━━━────────────────────────────────────────────────  1:05 / 4:29  |
            |  vol 55%  ·  2 queued                                                          |
            |                                                                                |
            |  Station unreachable (connection refused) — check --server or your network;    |
            |  retrying.                                                                     |
            |  space toggle  n skip  l like  b trash  c channels  ? help  q quit             |
            """)
    }

    @Test func chineseAt120Columns() {
        Self.check(Fixtures.chinese, width: 120, expected: """
            | 华语MHz                                                                                                         paused |
            |                                                                                                                        |
            |  晴天 ♡                                                                                                                |
            |  周杰伦                                                                                                                |
            |  叶惠美 (2003) · 320 kbps                                                                                              |
            |                                                                                                                        |
            |  ━━━━━━━━━━━━━━━━━━━━━━━━───────────────────────────────────────────────────────────────────────────────  1:05 / 4:29  |
            |  vol 55%  ·  2 queued                                                                                                  |
            |                                                                                                                        |
            |                                                                                                                        |
            |  Station unreachable (connection refused) — check --server or your network; retrying.                                  |
            |  space toggle  n skip  l like  b trash  d download  c channels  ? help  q quit                                         |
            """)
    }

    @Test func japaneseAt40Columns() {
        Self.check(Fixtures.japanese, width: 40, expected: """
            | 日本語チャンネル               playing |
            |                                        |
            |  夜に駆ける 🎵 (Live at 日本武道館… ♥  |
            |  YOASOBI 👍🏽                          |
            |  THE BOOK (2021)                       |
            |                                        |
            |  ──────────────────────  0:05 / --:--  |
            |  vol 100%  ·  0 queued                 |
            |                                        |
            |                                        |
            |                                        |
            |  space toggle  n skip  ? help  q quit  |
            """)
    }

    @Test func japaneseAt80Columns() {
        Self.check(Fixtures.japanese, width: 80, expected: """
            | 日本語チャンネル                                                       playing |
            |                                                                                |
            |  夜に駆ける 🎵 (Live at 日本武道館 2021) ♥                                     |
            |  YOASOBI 👍🏽                                                                  |
            |  THE BOOK (2021)                                                               |
            |                                                                                |
            |  ──────────────────────────────────────────────────────────────  0:05 / --:--  |
            |  vol 100%  ·  0 queued                                                         |
            |                                                                                |
            |                                                                                |
            |                                                                                |
            |  space toggle  n skip  l like  b trash  c channels  ? help  q quit             |
            """)
    }

    @Test func japaneseAt120Columns() {
        Self.check(Fixtures.japanese, width: 120, expected: """
            | 日本語チャンネル                                                                                               playing |
            |                                                                                                                        |
            |  夜に駆ける 🎵 (Live at 日本武道館 2021) ♥                                                                             |
            |  YOASOBI 👍🏽                                                                                                          |
            |  THE BOOK (2021)                                                                                                       |
            |                                                                                                                        |
            |  ──────────────────────────────────────────────────────────────────────────────────────────────────────  0:05 / --:--  |
            |  vol 100%  ·  0 queued                                                                                                 |
            |                                                                                                                        |
            |                                                                                                                        |
            |                                                                                                                        |
            |  space toggle  n skip  l like  b trash  d download  c channels  ? help  q quit                                         |
            """)
    }

    @Test func smallTerminalKeepsTitleProgressAndProblem() {
        let rendered = NowPlayingView.render(Fixtures.chinese, width: 20, height: 5)
        #expect(rendered == Self.board("""
            | 晴天 ♡             |
            | 周杰伦             |
            | ━────  1:05 / 4:29 |
            | Station            |
            | unreachable (conn… |
            """))
    }
}

/// Frame rules that hold for any snapshot at any size.
@Suite struct NowPlayingLayoutTests {
    static let snapshots = [Fixtures.ascii, Fixtures.chinese, Fixtures.japanese,
                            RadioSnapshot(), RadioSnapshot(loading: true)]

    @Test func everySizeGivesExactlyWidthByHeight() {
        for snapshot in Self.snapshots {
            for width in [0, 1, 2, 3, 5, 8, 13, 20, 21, 33, 40, 57, 80, 120, 200] {
                for height in [0, 1, 2, 3, 5, 8, 12, 24, 50] {
                    let lines = NowPlayingView.render(snapshot, width: width, height: height)
                    #expect(lines.count == height)
                    #expect(lines.allSatisfy { DisplayWidth.width(of: $0) == width }, "\(width)x\(height)")
                }
            }
        }
    }

    @Test func garbagePositionsDoNotTrap() {
        for position in [Double.nan, .infinity, -.infinity, 1e300, -5] {
            // -5 is finite but negative: also shown as unknown.
            var snapshot = Fixtures.ascii
            snapshot.position = position
            snapshot.duration = position
            let lines = NowPlayingView.render(snapshot, width: 40, height: 12)
            // Elapsed cannot be shown; the total falls back to the track's length or is
            // unknown too. Either way the line keeps its width.
            #expect(lines[6].contains("  --:-- / ") && DisplayWidth.width(of: lines[6]) == 40, "\(position)")
            let state = InteractionState(keymap: .standard)
            let shown = state.displayed(snapshot, receivedAt: .now, now: .now + .seconds(1))
            #expect(InteractionState.displayedSecond(shown.position) == -1 || position == -5)
        }
    }

    @Test func titleAndHeartSurviveOnOneLine() {
        let lines = NowPlayingView.render(Fixtures.chinese, width: 20, height: 1)
        #expect(lines == [" 晴天 ♡             "])
    }

    @Test func loadingWithoutTrack() {
        let lines = NowPlayingView.render(RadioSnapshot(loading: true), width: 40, height: 8)
        #expect(lines == NowPlayingViewTests.board("""
            | mhz                            loading |
            |  Nothing playing                       |
            |                                        |
            |                                        |
            |  ─────────────────────  --:-- / --:--  |
            |  vol 100%  ·  0 queued                 |
            |  Loading…                              |
            |  space toggle  n skip  ? help  q quit  |
            """))
    }

    @Test func problemOverridesLoading() {
        var snapshot = RadioSnapshot(loading: true)
        snapshot.problem = .emptyChannel(ChannelInfo(id: "9", name: "空频道"))
        #expect(NowPlayingView.statusText(snapshot)
            == "Channel “空频道” has no songs right now — choose another channel; retrying meanwhile.")
        #expect(NowPlayingView.statusText(RadioSnapshot(loading: true)) == "Loading…")
        #expect(NowPlayingView.statusText(RadioSnapshot()) == "")
    }

    @Test func aReconnectionIsOnTheStatusLineAsAnAlert() throws {
        var snapshot = Fixtures.ascii
        snapshot.reconnecting = Reconnection(attempt: 2, maxAttempts: 4)
        #expect(NowPlayingView.statusText(snapshot) == "Reconnecting (attempt 2 of 4)…")
        let frame = NowPlayingView.frame(snapshot, width: 40, height: 12)
        let line = try #require(frame.lines.firstIndex { $0.contains("Reconnecting (attempt 2 of 4)…") },
                                 "\(frame.lines)")
        #expect(frame.styles[line] == .alert)
        snapshot.reconnecting = nil
        #expect(NowPlayingView.statusText(snapshot) == "")
    }

    @Test func timeFormatting() {
        #expect(NowPlayingView.timeText(65) == "1:05")
        #expect(NowPlayingView.timeText(228.9) == "3:48")
        #expect(NowPlayingView.timeText(0) == "0:00")
        #expect(NowPlayingView.timeText(3723) == "1:02:03")
        #expect(NowPlayingView.timeText(nil) == "--:--")
        #expect(NowPlayingView.timeText(.nan) == "--:--")
        #expect(NowPlayingView.timeText(-1) == "--:--")
    }

    @Test func progressBarFillsWithPositionAndHintsFollowOverrides() throws {
        var snapshot = Fixtures.ascii
        snapshot.position = 562
        let keymap = try Keymap(overrides: ["skip": "N", "toggle": "p"])
        let lines = NowPlayingView.render(snapshot, width: 40, height: 12, keymap: keymap)
        #expect(lines[6] == "  ━━━━━━━━━━━━━━━━━━━━━━━  9:22 / 9:22  ")
        #expect(lines[11] == DisplayWidth.pad("  p toggle  N skip  ? help  q quit", to: 40))
    }
}

/// The status line while the station is away: what happened, when the radio tries again,
/// and what waits to be sent.
struct OfflineStatusTests {
    @Test func unreachableShowsTheNextTryAndWaitingReports() throws {
        let next = try #require(Calendar.current.date(from: DateComponents(year: 2026, month: 11, day: 22,
                                                                           hour: 9, minute: 5, second: 7)))
        var snapshot = RadioSnapshot(problem: .service(.unreachable("Connection refused")), loading: true,
                                     pendingReports: 2, nextRetry: next)
        #expect(NowPlayingView.statusText(snapshot) ==
            ErrorText.describe(.service(.unreachable("Connection refused"))) + " Next try at 09:05:07. 2 reports wait to be sent.")
        snapshot.problem = nil
        snapshot.pendingReports = 1
        #expect(NowPlayingView.statusText(snapshot) == "Loading… 1 report waits to be sent.")
        snapshot.loading = false
        snapshot.pendingReports = 0
        #expect(NowPlayingView.statusText(snapshot) == "")
    }
}
