import Radio

/// A list on screen with a selection, as the channel list, the downloads view and the
/// history view show theirs: the selected row marked `>` and drawn reversed, kept in the
/// middle of the screen once the list scrolls, moved by the movement keys (a step of one
/// row, or a page) and never past either end.
///
/// The value holds only the selected row's identity, never its index: the rows come from
/// each snapshot, so a row that moves (the history growing, a download ending, a filter
/// typed) stays selected, and a selection that is gone falls back to the first row.
/// The lyrics view, which scrolls without a selection, and the help screen share its
/// screen's rule of which rows show, ``ListScreen/top(_:rows:count:)``.
public struct ScrollingList<ID: Hashable & Sendable>: Sendable, Equatable {
    /// The selected row's identity; nil (or one no row has) selects the first row.
    public private(set) var selectedID: ID?

    /// A list with the row `id` selected.
    public init(selecting id: ID? = nil) { selectedID = id }

    /// Where the selection is among rows identified by `ids`, or nil when there are none.
    public func selectedIndex(in ids: [ID]) -> Int? {
        guard !ids.isEmpty else { return nil }
        return selectedID.flatMap { ids.firstIndex(of: $0) } ?? 0
    }

    /// Selects the row `id`.
    public mutating func select(_ id: ID?) { selectedID = id }

    /// Moves the selection `step` rows down (up when negative) among `ids`, stopping at the
    /// first and the last row.
    public mutating func move(by step: Int, in ids: [ID]) {
        guard let index = selectedIndex(in: ids) else { return }
        let (moved, overflow) = index.addingReportingOverflow(step)
        let target = overflow ? (step < 0 ? 0 : ids.count - 1) : min(ids.count - 1, max(0, moved))
        selectedID = ids[target]
    }

    /// Applies the keys every list shares: `close` closes, the movement keys move the
    /// selection. Nil for any other action: it is the view's to apply.
    public mutating func handle(_ action: KeyAction?, ids: [ID]) -> ViewOutcome<RadioCommand>? {
        switch action {
        case .close: return .close
        case .moveSelection(let step):
            move(by: step, in: ids)
            return .stay
        default: return nil
        }
    }

    /// The list's screen: `screen`'s lines around the rows, the selection in the middle once they
    /// scroll, `empty` (dim) when there are none. `row` draws the row at an index, given
    /// the mark its text starts with and the columns it has; the selected row is drawn
    /// `.selected` whatever style `row` gives it.
    public func frame(_ ids: [ID], screen: ListScreen, empty: String, width: Int, height: Int, keymap: Keymap,
                      row: (_ index: Int, _ mark: String, _ width: Int) -> (text: String, style: Frame.Style)) -> Frame {
        let selected = selectedIndex(in: ids) ?? 0
        return screen.frame(count: ids.count, top: { ListScreen.top(centring: selected, rows: $0, count: ids.count) },
                            empty: empty, width: width, height: height, keymap: keymap) { index, width in
            let drawn = row(index, ListScreen.mark(index == selected), width)
            return (drawn.text, index == selected ? .selected : drawn.style)
        }
    }
}
