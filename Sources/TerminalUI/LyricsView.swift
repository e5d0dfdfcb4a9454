import Radio

/// The lyrics view (`y`): the whole of the song's lyrics, the line being sung highlighted
/// and kept in the middle of the view as the song plays; unsynced lyrics as plain text.
/// The movement keys scroll; the view follows the song again once another line is
/// reached (or another song plays), so a glance back never loses the place for long.
/// The nudge keys of the now-playing screen (`lyrics-earlier`, `lyrics-later`) work here
/// too, so a nudge is seen as it is made.
///
/// The value holds only where the listener scrolled; the lyrics come from each snapshot,
/// so the view follows the song without a stale line.
public struct LyricsView: Sendable, Equatable {
    /// Where the listener scrolled: the first line shown, for the song and the current
    /// line of that moment; nil while the view follows the song.
    private var scrolled: Scroll?

    /// A scroll position and the moment it holds for.
    private struct Scroll: Sendable, Equatable {
        var top: Int
        var sid: String
        var current: Int?
    }

    /// Opens the view following the song.
    public init() {}

    /// The first line shown of `lyrics` with `visible` lines to fill: where the listener
    /// scrolled while that still holds, else the line being sung in the middle; never
    /// past the point where the last line reaches the bottom.
    public func top(_ lyrics: SongLyrics, visible: Int) -> Int {
        if let scrolled, scrolled.sid == lyrics.sid, scrolled.current == lyrics.current {
            return ListScreen.top(scrolled.top, rows: visible, count: lyrics.lines.count)
        }
        guard let current = lyrics.current else { return 0 }
        return ListScreen.top(centring: current, rows: visible, count: lyrics.lines.count)
    }

    /// Applies one key press to the view of `lyrics` on a screen of `height` rows; a
    /// command is a nudge, and the view stays open.
    public mutating func handle(_ key: Key, lyrics: SongLyrics?, height: Int, keymap: Keymap) -> ViewOutcome<RadioCommand> {
        let action = keymap.action(for: key, in: [.lyrics])
        if action == .close { return .close }
        if case .moveSelection(let step)? = action {
            guard let lyrics else { return .stay }
            let visible = ListScreen.rows(height: height)
            let top = ListScreen.top(top(lyrics, visible: visible) + step, rows: visible, count: lyrics.lines.count)
            scrolled = Scroll(top: top, sid: lyrics.sid, current: lyrics.current)
            return .stay
        }
        if action == nil, case .command(let command)? = keymap.action(for: key, in: [.song]),
           command == .lyricsEarlier || command == .lyricsLater {
            return .send(command)
        }
        return .stay
    }

    // MARK: - Rendering

    /// The view as plain lines, exactly `height` × `width`.
    public func render(_ snapshot: RadioSnapshot, width: Int, height: Int, keymap: Keymap = .standard) -> [String] {
        frame(snapshot, width: width, height: height, keymap: keymap).lines
    }

    /// The view with a style per line; the line being sung is `.selected`.
    public func frame(_ snapshot: RadioSnapshot, width: Int, height: Int, keymap: Keymap = .standard) -> Frame {
        let track = snapshot.track
        let lyrics = snapshot.lyrics.flatMap { $0.sid == track?.sid ? $0 : nil }
        let state = lyrics.map { $0.lines.isEmpty ? "" : ($0.isSynced ? "synced" : "unsynced") } ?? ""
        let screen = ListScreen(title: "Lyrics" + (track.map { ": " + $0.title } ?? ""), summary: state, hints: .lyrics)
        let empty = track == nil ? "Nothing playing."
            : lyrics == nil ? "Asking the station for the lyrics…" : "No lyrics for this song."
        let lines = lyrics?.lines ?? []
        return screen.frame(count: lines.count, top: { rows in lyrics.map { top($0, visible: rows) } ?? 0 }, empty: empty,
                            width: width, height: height, keymap: keymap) { index, width in
            let isCurrent = index == lyrics?.current
            // Synced lines keep a column for the mark of the line being sung.
            let mark = lyrics?.isSynced == true ? ListScreen.mark(isCurrent) : ""
            // The text is cut, never the mark: on a narrow screen the lines still line up.
            return (mark + DisplayWidth.truncate(lines[index], to: max(0, width - mark.count)), isCurrent ? .selected : .plain)
        }
    }
}
