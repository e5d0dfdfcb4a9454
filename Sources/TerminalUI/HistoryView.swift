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
    /// A row's identity.
    public struct Selection: Sendable, Hashable {
        /// The song's sid.
        public var sid: String
        /// When it started.
        public var startedAt: Date
    }

    /// The selection, by song and start; none selects the newest.
    private var list = ScrollingList<Selection>()

    /// The selected song (its sid and start, which tell rows of one song apart); nil
    /// selects the newest.
    public var selected: Selection? { list.selectedID }

    /// Opens the view with the newest song selected.
    public init() {}

    /// The identities of `entries`' rows.
    private static func ids(_ entries: [ListenEntry]) -> [Selection] {
        entries.map { Selection(sid: $0.track.sid, startedAt: $0.startedAt) }
    }

    /// Applies one key press to the view of `entries`; a command is about the selected
    /// song, and the view stays open.
    public mutating func handle(_ key: Key, entries: [ListenEntry], keymap: Keymap) -> ViewOutcome<RadioCommand> {
        let action = keymap.action(for: key, in: [.history])
        let ids = Self.ids(entries)
        if let outcome = list.handle(action, ids: ids) { return outcome }
        guard let index = list.selectedIndex(in: ids) else { return .stay }
        let entry = entries[index]
        let pastAction: PastSongAction
        switch action {
        case .likePast: pastAction = entry.track.liked ? .unlike : .like
        case .trashPast: pastAction = .trash
        case .downloadPast: pastAction = .download
        default: return .stay
        }
        list.select(ids[index])
        guard !entry.otherStation else { return .refused(.unsupported("a report about another station's song")) }
        return .send(.pastSong(pastAction, sid: entry.track.sid))
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
        let entries = snapshot.history
        let screen = ListScreen(title: "History", summary: "\(entries.count) songs", hints: .history)
        return list.frame(Self.ids(entries), screen: screen, empty: "No songs played yet.",
                          width: width, height: height, keymap: keymap) { index, mark, width in
            (Self.row(entries[index], mark: mark, now: now, width: width), entries[index].otherStation ? .dim : .plain)
        }
    }

    /// `> ♥ Artist - Title                skipped  5m ago`: the title cut to the columns left
    /// by display width (CJK characters take two).
    static func row(_ entry: ListenEntry, mark: String, now: Date, width: Int) -> String {
        let right = "\(entry.outcome.rawValue)  \(age(of: entry.startedAt, now: now))"
        let song = entry.track
        let name = song.artist.isEmpty ? song.title : "\(song.artist) - \(song.title)"
        let left = mark + (song.liked ? "♥ " : "  ") + DisplayWidth.sanitize(name)
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
