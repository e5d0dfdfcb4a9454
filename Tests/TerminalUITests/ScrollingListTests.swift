import Radio
import Testing
@testable import TerminalUI

/// The scrolling list the channel list, the downloads and the history views are made of,
/// and the screen around it (the lyrics view's too): the selection kept by identity and
/// stopped at both ends, the rows scrolled so the last one never leaves the bottom, an
/// empty list, the chrome a short screen gives up, and rows too wide for the screen.
@Suite struct ScrollingListTests {
    static let ids = [10, 20, 30, 40, 50]

    /// The frame of `ids` drawn as `row N`, `height` lines of `width` columns.
    static func frame(_ list: ScrollingList<Int>, _ ids: [Int], width: Int = 20, height: Int) -> Frame {
        list.frame(ids, screen: ListScreen(title: "Test", summary: "\(ids.count)", hints: .downloads),
                   empty: "Nothing here.", width: width, height: height, keymap: .standard) { index, mark, _ in
            (mark + "row \(ids[index])", .plain)
        }
    }

    @Test func theSelectionStopsAtBothEndsAndFollowsItsRow() {
        var list = ScrollingList<Int>(selecting: 30)
        #expect(list.selectedIndex(in: Self.ids) == 2)
        list.move(by: 10, in: Self.ids)
        #expect(list.selectedID == 50)
        list.move(by: 1, in: Self.ids)
        #expect(list.selectedID == 50)
        list.move(by: -10, in: Self.ids)
        #expect(list.selectedID == 10)
        list.move(by: -1, in: Self.ids)
        #expect(list.selectedID == 10)
        // A step past what an Int holds stops at the end too.
        list.select(30)
        list.move(by: .max, in: Self.ids)
        #expect(list.selectedID == 50)
        list.move(by: .min, in: Self.ids)
        #expect(list.selectedID == 10)
        // A row added above keeps the selection on its row, not its index.
        list.move(by: 1, in: Self.ids)
        #expect(list.selectedIndex(in: [5] + Self.ids) == 2)
        // A selection no row has falls back to the first row, and moves from there.
        list.select(99)
        #expect(list.selectedIndex(in: Self.ids) == 0)
        list.move(by: 1, in: Self.ids)
        #expect(list.selectedID == 20)
    }

    @Test func theListsKeysMoveAndCloseAndLeaveTheRestToTheView() {
        var list = ScrollingList<Int>(selecting: 20)
        #expect(list.handle(.moveSelection(10), ids: Self.ids) == .stay)
        #expect(list.selectedID == 50)
        #expect(list.handle(.close, ids: Self.ids) == .close)
        #expect(list.handle(.choose, ids: Self.ids) == nil)
        #expect(list.handle(nil, ids: Self.ids) == nil)
        #expect(list.selectedID == 50)
    }

    @Test func theRowsScrollWithTheSelectionButNeverPastTheEnd() {
        let ids = Array(0..<10)
        // 6 lines: the header, 4 rows, the hints.
        func rows(selecting id: Int) -> [String] {
            Self.frame(ScrollingList(selecting: id), ids, height: 6).lines[1...4].map { String($0) }
        }
        func padded(_ text: String) -> String { DisplayWidth.pad(text, to: 20) }
        #expect(rows(selecting: 0) == ["> row 0", "  row 1", "  row 2", "  row 3"].map { padded(" " + $0) })
        #expect(rows(selecting: 5) == ["  row 3", "  row 4", "> row 5", "  row 6"].map { padded(" " + $0) })
        // The selection in the middle would leave a blank row under the last one: the last
        // row stays at the bottom instead.
        #expect(rows(selecting: 8) == ["  row 6", "  row 7", "> row 8", "  row 9"].map { padded(" " + $0) })
        #expect(rows(selecting: 9) == ["  row 6", "  row 7", "  row 8", "> row 9"].map { padded(" " + $0) })
        let frame = Self.frame(ScrollingList(selecting: 9), ids, height: 6)
        #expect(frame.lines[0] == DisplayWidth.spread(" Test", "10 ", to: 20))
        #expect(frame.styles == [.header, .plain, .plain, .plain, .selected, .dim])
        #expect(ListScreen.top(7, rows: 4, count: 10) == 6)
        #expect(ListScreen.top(-3, rows: 4, count: 10) == 0)
        #expect(ListScreen.top(3, rows: 12, count: 10) == 0)
    }

    @Test func anEmptyListSaysSoAndItsKeysDoNothing() {
        var list = ScrollingList<Int>(selecting: 30)
        #expect(list.selectedIndex(in: []) == nil)
        #expect(list.handle(.moveSelection(1), ids: []) == .stay)
        #expect(list.handle(.moveSelection(-10), ids: []) == .stay)
        #expect(list.selectedID == 30)
        let frame = Self.frame(list, [], width: 30, height: 4)
        #expect(frame.lines[1] == DisplayWidth.pad(" Nothing here.", to: 30))
        #expect(frame.styles == [.header, .dim, .plain, .dim])
        #expect(frame.lines.count == 4)
    }

    @Test func aShortScreenGivesUpTheChromeBeforeTheRows() {
        #expect((0...6).map { ListScreen.rows(height: $0) } == [0, 1, 2, 2, 2, 3, 4])
        let hint = ListScreen.Prompt("Type", style: .dim, insistent: false)
        #expect((0...6).map { ListScreen.rows(height: $0, prompt: hint) } == [0, 1, 2, 2, 2, 2, 3])
        // What is being typed shows even when the header cannot.
        let typing = ListScreen.Prompt("Filter: a", style: .plain, insistent: true)
        #expect((0...6).map { ListScreen.rows(height: $0, prompt: typing) } == [0, 1, 1, 2, 2, 2, 3])
        let screen = ListScreen(title: "Test", summary: "1", hints: .downloads, prompt: typing)
        let frame = screen.frame(count: 1, top: { _ in 0 }, empty: "", width: 12, height: 3, keymap: .standard) { _, _ in
            ("> row", .selected)
        }
        #expect(frame.lines == [" Filter: a  ", " > row      ", "            "])
    }

    @Test func wideCharactersAreFittedInsideTheMargins() {
        let wide = "夜曲夜曲夜曲夜曲"
        let list = ScrollingList<Int>(selecting: 1)
        // 12 columns: a margin of one on each side, 10 for the row. The row is cut before
        // the wide character that would reach the margin, and padded where it straddled.
        let frame = list.frame([1, 2], screen: ListScreen(title: "T", summary: "", hints: .downloads), empty: "",
                               width: 12, height: 2, keymap: .standard) { index, mark, _ in
            (mark + (index == 0 ? wide : "a" + wide), .plain)
        }
        #expect(frame.lines == [" > 夜曲夜…  ", "   a夜曲夜… "])
        #expect(frame.lines.allSatisfy { DisplayWidth.width(of: $0) == 12 })
        #expect(frame.styles == [.selected, .plain])
    }
}
