import Foundation
import Radio

/// The history view (`H`): the songs played, newest first, each with how it left, when and
/// whether it is liked; the selected one liked or unliked with `l`, trashed with `b`,
/// downloaded with `d` — `past` commands about its sid, which leave the song playing and
/// the queue alone.
///
/// The value holds only the selection; the songs come from each snapshot, so the view
/// follows the history as songs begin and leave.
public struct HistoryView: Sendable, Equatable {
    /// What a key press asks of the caller.
    public enum Outcome: Sendable, Equatable {
        /// Nothing beyond redrawing.
        case stay
        /// Close the view.
        case close
        /// Send this command (about the selected song); the view stays open.
        case send(RadioCommand)
        /// The selected song played on another station: no report can be made about it.
        case refused(ListenEntry)
    }

    /// The selected song (its sid and start, which tell rows of one song apart); nil
    /// selects the newest.
    public private(set) var selected: Selection?

    /// A row's identity.
    public struct Selection: Sendable, Equatable {
        /// The song's sid.
        public var sid: String
        /// When it started.
        public var startedAt: Date
    }

    /// Opens the view with the newest song selected.
    public init() {}

    /// Where the selection is in `entries`, or nil when there are none.
    public func selectedIndex(_ entries: [ListenEntry]) -> Int? {
        guard !entries.isEmpty else { return nil }
        return entries.firstIndex { $0.sid == selected?.sid && $0.startedAt == selected?.startedAt } ?? 0
    }

    /// Applies one key press to the view of `entries`.
    public mutating func handle(_ key: Key, entries: [ListenEntry], keymap: Keymap) -> Outcome {
        let action = keymap.action(for: key, in: [.history])
        if action == .close { return .close }
        guard let index = selectedIndex(entries) else { return .stay }
        let entry = entries[index]
        let pastAction: PastSongAction
        switch action {
        case .moveSelection(let step):
            let moved = entries[min(entries.count - 1, max(0, index + step))]
            selected = Selection(sid: moved.sid, startedAt: moved.startedAt)
            return .stay
        case .likePast: pastAction = entry.liked ? .unlike : .like
        case .trashPast: pastAction = .trash
        case .downloadPast: pastAction = .download
        default: return .stay
        }
        selected = Selection(sid: entry.sid, startedAt: entry.startedAt)
        return entry.otherStation ? .refused(entry) : .send(.pastSong(pastAction, sid: entry.sid))
    }

    // MARK: - Rendering

    /// The view as plain lines, exactly `height` × `width`, ages told as of `now`.
    public func render(_ snapshot: RadioSnapshot, width: Int, height: Int, now: Date = Date(),
                       keymap: Keymap = .standard) -> [String] {
        frame(snapshot, width: width, height: height, now: now, keymap: keymap).lines
    }

    /// The view with a style per line; the selected row is `.selected`, another station's
    /// songs are dim.
    public func frame(_ snapshot: RadioSnapshot, width: Int, height: Int, now: Date = Date(),
                      keymap: Keymap = .standard) -> Frame {
        let margin = Frame.margin(width: width)
        let indent = String(repeating: " ", count: margin)
        let inner = max(0, width - 2 * margin)
        let entries = snapshot.history
        var frame = Frame(width: width)
        let showHints = height >= 4
        if height >= 3 {
            frame.append(DisplayWidth.spread(" History", "\(entries.count) songs ", to: width), style: .header)
        }
        let rows = max(0, height - frame.lines.count - (showHints ? 1 : 0))
        if entries.isEmpty {
            if rows > 0 { frame.append(indent + "No songs played yet.", style: .dim) }
        } else {
            let selected = selectedIndex(entries) ?? 0
            let first = Frame.firstRow(centring: selected, rows: rows, count: entries.count)
            for index in first..<min(entries.count, first + rows) {
                let entry = entries[index]
                let style: Frame.Style = index == selected ? .selected : (entry.otherStation ? .dim : .plain)
                frame.append(indent + Self.row(entry, selected: index == selected, now: now, width: inner), style: style)
            }
        }
        if showHints {
            while frame.lines.count < height - 1 { frame.appendBlank() }
            frame.append(indent + keymap.hintLine(for: [.history], columns: inner), style: .dim)
        }
        frame.fit(height: height)
        return frame
    }

    /// `> ♥ Artist - Title                skipped  5m ago`: the title cut to the columns left
    /// by display width (CJK characters take two).
    static func row(_ entry: ListenEntry, selected: Bool, now: Date, width: Int) -> String {
        let right = "\(entry.outcome.rawValue)  \(age(of: entry.startedAt, now: now))"
        let name = entry.artist.isEmpty ? entry.title : "\(entry.artist) - \(entry.title)"
        let left = (selected ? "> " : "  ") + (entry.liked ? "♥ " : "  ") + DisplayWidth.sanitize(name)
        return DisplayWidth.spread(left, right, to: width)
    }

    /// `now`, `5m ago`, `3h ago`, `2d ago`.
    static func age(of date: Date, now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        if seconds < 60 { return "now" }
        if seconds < 3600 { return "\(seconds / 60)m ago" }
        if seconds < 86_400 { return "\(seconds / 3600)h ago" }
        return "\(seconds / 86_400)d ago"
    }
}
