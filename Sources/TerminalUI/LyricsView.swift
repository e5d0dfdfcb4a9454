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
    /// What a key press asks of the caller.
    public enum Outcome: Sendable, Equatable {
        /// Nothing beyond redrawing.
        case stay
        /// Close the view.
        case close
        /// Send this command (a nudge); the view stays open.
        case send(RadioCommand)
    }

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

    /// The lines of lyrics a screen of `height` rows shows (a header and the hint line
    /// take the rest).
    public static func visibleLines(height: Int) -> Int {
        max(0, height - (height >= 3 ? 1 : 0) - (height >= 4 ? 1 : 0))
    }

    /// The first line shown of `lyrics` with `visible` lines to fill: where the listener
    /// scrolled while that still holds, else the line being sung in the middle; never
    /// past the point where the last line reaches the bottom.
    public func top(_ lyrics: SongLyrics, visible: Int) -> Int {
        let limit = max(0, lyrics.lines.count - visible)
        if let scrolled, scrolled.sid == lyrics.sid, scrolled.current == lyrics.current {
            return min(max(0, scrolled.top), limit)
        }
        guard let current = lyrics.current else { return 0 }
        return min(max(0, current - visible / 2), limit)
    }

    /// Applies one key press to the view of `lyrics` on a screen of `height` rows.
    public mutating func handle(_ key: Key, lyrics: SongLyrics?, height: Int, keymap: Keymap) -> Outcome {
        let action = keymap.action(for: key, in: [.lyrics])
        if action == .close { return .close }
        if case .moveSelection(let step)? = action {
            guard let lyrics else { return .stay }
            let visible = Self.visibleLines(height: height)
            let limit = max(0, lyrics.lines.count - visible)
            let top = min(max(0, top(lyrics, visible: visible) + step), limit)
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
        let margin = Frame.margin(width: width)
        let indent = String(repeating: " ", count: margin)
        let inner = max(0, width - 2 * margin)
        let track = snapshot.track
        let lyrics = snapshot.lyrics.flatMap { $0.sid == track?.sid ? $0 : nil }
        var frame = Frame(width: width)
        if height >= 3 {
            let state = lyrics.map { $0.lines.isEmpty ? "" : ($0.isSynced ? "synced " : "unsynced ") } ?? ""
            frame.append(DisplayWidth.spread(" Lyrics" + (track.map { ": " + $0.title } ?? ""), state, to: width),
                         style: .header)
        }
        let visible = Self.visibleLines(height: height)
        if visible > 0 {
            if track == nil {
                frame.append(indent + "Nothing playing.", style: .dim)
            } else if let lyrics, !lyrics.lines.isEmpty {
                // Synced lines keep a column for the mark of the line being sung.
                let gutter = lyrics.isSynced ? 2 : 0
                let first = top(lyrics, visible: visible)
                for index in first..<min(lyrics.lines.count, first + visible) {
                    let isCurrent = index == lyrics.current
                    let mark = gutter == 0 ? "" : (isCurrent ? "> " : "  ")
                    // Fitted as titles are: wide characters count two columns.
                    let text = DisplayWidth.truncate(lyrics.lines[index], to: max(0, inner - gutter))
                    frame.append(indent + mark + text, style: isCurrent ? .selected : .plain)
                }
            } else {
                frame.append(indent + (lyrics == nil ? "Asking the station for the lyrics…" : "No lyrics for this song."),
                             style: .dim)
            }
        }
        if height >= 4 {
            while frame.lines.count < height - 1 { frame.appendBlank() }
            frame.append(indent + keymap.hintLine(for: [.lyrics], columns: inner), style: .dim)
        }
        frame.fit(height: height)
        return frame
    }
}
