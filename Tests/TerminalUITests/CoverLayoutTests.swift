import Foundation
import Radio
import Testing
@testable import TerminalUI
@testable import TUIHarness

/// Where the now-playing screen keeps the cover, and that without room for one the
/// screen is exactly what it was before covers.
@Suite struct CoverLayoutTests {
    @Test func wideEnoughTerminalsGetASquareCoverBelowTheHeader() {
        #expect(CoverArea.fitting(width: 70, height: 14) == CoverArea(row: 2, column: 2, columns: 16, rows: 8))
        #expect(CoverArea.fitting(width: 80, height: 24) == CoverArea(row: 2, column: 2, columns: 24, rows: 12))
        #expect(CoverArea.fitting(width: 200, height: 60) == CoverArea(row: 2, column: 2, columns: 24, rows: 12))
        #expect(CoverArea.fitting(width: 80, height: 24)?.textColumn == 29)
    }

    @Test func narrowOrShortTerminalsGetNone() {
        #expect(CoverArea.fitting(width: 69, height: 24) == nil)
        #expect(CoverArea.fitting(width: 120, height: 13) == nil)
        #expect(CoverArea.fitting(width: 40, height: 12) == nil)
    }

    @Test func theSongMovesRightOfTheCoverAndTheAreaStaysBlank() {
        let area = CoverArea.fitting(width: 70, height: 14)
        let lines = NowPlayingView.frame(Fixtures.ascii, width: 70, height: 14, cover: area).lines
        #expect(lines == NowPlayingViewTests.board("""
            | Jazz FM                                                      playing |
            |                                                                      |
            |                     So What ♥                                        |
            |                     Miles Davis                                      |
            |                     Kind of Blue (1959) · 192 kbps                   |
            |                                                                      |
            |                     ━━━───────────────────────────────  1:05 / 9:22  |
            |                     vol 80%  ·  3 queued                             |
            |                                                                      |
            |                                                                      |
            |                                                                      |
            |                                                                      |
            |                                                                      |
            |  space toggle  n skip  l like  b trash  c channels  ? help  q quit   |
            """))
    }

    @Test func aProblemOnTheStatusLineStaysBelowTheCover() throws {
        let area = try #require(CoverArea.fitting(width: 70, height: 14))
        let frame = NowPlayingView.frame(Fixtures.chinese, width: 70, height: 14, cover: area)
        // Every line the cover covers is blank where it lies.
        for row in area.row..<(area.row + area.rows) {
            let start = frame.lines[row].index(frame.lines[row].startIndex, offsetBy: area.column)
            let covered = frame.lines[row][start...].prefix(area.columns + CoverArea.gap)
            #expect(covered.allSatisfy { $0 == " " }, "\(row): \(frame.lines[row])")
        }
        #expect(frame.lines[11].hasPrefix("  Station unreachable"), "\(frame.lines[11])")
        #expect(frame.lines.count == 14 && frame.lines.allSatisfy { DisplayWidth.width(of: $0) == 70 })
    }

    @Test func withoutRoomTheScreenIsTheOneWithoutCovers() {
        for (width, height) in [(69, 24), (60, 24), (120, 13), (40, 12), (80, 5)] {
            for snapshot in [Fixtures.ascii, Fixtures.chinese, RadioSnapshot()] {
                let area = CoverArea.fitting(width: width, height: height)
                #expect(NowPlayingView.frame(snapshot, width: width, height: height, cover: area)
                    == NowPlayingView.frame(snapshot, width: width, height: height))
            }
        }
    }

    @Test func onlyTheNowPlayingScreenLeavesRoom() {
        let area = CoverArea.fitting(width: 80, height: 24)
        var state = InteractionState(keymap: .standard)
        _ = state.handle(.character("?"), snapshot: Fixtures.ascii, now: .now)
        #expect(state.frame(Fixtures.ascii, width: 80, height: 24, cover: area)
            == state.frame(Fixtures.ascii, width: 80, height: 24))
    }
}
