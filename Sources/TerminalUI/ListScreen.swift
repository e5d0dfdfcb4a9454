/// The screen of a list view (the channel list, the downloads, the history, the lyrics):
/// which rows show, and the lines around them — a header (the view's name, and on the
/// right a count or a state), optionally a prompt line under it (the channel list's
/// filter), and at the bottom the hint line of the view's keys. The rows take what is left.
///
/// A short screen gives up those lines before the rows, keeping at least two rows: the
/// header needs 3 lines, the prompt 4, the hints one more than the lines above them. A
/// prompt that is being typed into (`insistent`) shows alone from 2 lines, since what is
/// typed must be seen.
public struct ListScreen: Sendable {
    /// A line under the header.
    public struct Prompt: Sendable {
        /// Its text.
        public var text: String
        /// Its style.
        public var style: Frame.Style
        /// Whether it stays, alone, on a screen too short for it and the header.
        public var insistent: Bool

        /// A prompt line.
        public init(_ text: String, style: Frame.Style, insistent: Bool) {
            self.text = text
            self.style = style
            self.insistent = insistent
        }
    }

    /// The header's text on the left.
    public var title: String
    /// The header's text on the right; when empty the title may take the whole line.
    public var summary: String
    /// The line under the header, if any.
    public var prompt: Prompt?
    /// Where the keys the hint line shows are bound.
    public var hints: KeyContext

    /// The chrome of a list titled `title`, `summary` at the header's right end, with the
    /// hints of `hints` and `prompt` under the header.
    public init(title: String, summary: String, hints: KeyContext, prompt: Prompt? = nil) {
        self.title = title
        self.summary = summary
        self.hints = hints
        self.prompt = prompt
    }

    /// Which of the lines a screen of `height` lines shows.
    private static func shows(height: Int, prompt: Prompt?) -> (header: Bool, prompt: Bool, hints: Bool) {
        let full = (header: height >= 3, prompt: prompt != nil && height >= 4, hints: height >= (prompt == nil ? 4 : 5))
        if let prompt, prompt.insistent, !full.prompt, height >= 2 { return (false, true, false) }
        return full
    }

    /// The rows a screen of `height` lines leaves for the list under the chrome of a view
    /// with or without `prompt`.
    public static func rows(height: Int, prompt: Prompt? = nil) -> Int {
        let shown = shows(height: height, prompt: prompt)
        return max(0, height - [shown.header, shown.prompt, shown.hints].filter { $0 }.count)
    }

    /// The screen, exactly `height` × `width`: the chrome, then `count` rows shown from
    /// `top(rows)` (given how many fit), each drawn by `row` with the columns inside the
    /// margins, or `empty` (dim) when `count` is 0. Each row is fitted to those columns by
    /// display width (cut with `…`), so a row of wide characters never eats the margin.
    public func frame(count: Int, top: (_ rows: Int) -> Int, empty: String, width: Int, height: Int, keymap: Keymap,
                      row: (_ index: Int, _ width: Int) -> (text: String, style: Frame.Style)) -> Frame {
        let indent = String(repeating: " ", count: Frame.margin(width: width))
        let inner = max(0, width - 2 * indent.count)
        let shown = Self.shows(height: height, prompt: prompt)
        var frame = Frame(width: width)
        if shown.header {
            frame.append(DisplayWidth.spread(" " + title, summary.isEmpty ? "" : summary + " ", to: width), style: .header)
        }
        if shown.prompt, let prompt { frame.append(indent + prompt.text, style: prompt.style) }
        let rows = Self.rows(height: height, prompt: prompt)
        if count == 0 {
            if rows > 0 { frame.append(indent + empty, style: .dim) }
        } else {
            let first = top(rows)
            for index in first..<min(count, first + rows) {
                let drawn = row(index, inner)
                frame.append(indent + DisplayWidth.pad(drawn.text, to: inner), style: drawn.style)
            }
        }
        if shown.hints {
            while frame.lines.count < height - 1 { frame.appendBlank() }
            frame.append(indent + keymap.hintLine(for: [hints], columns: inner), style: .dim)
        }
        frame.fit(height: height)
        return frame
    }

    /// The mark a row starts with: `> ` on the selected row (or the line being sung), two
    /// spaces on the others, so the texts line up.
    public static func mark(_ selected: Bool) -> String { selected ? "> " : "  " }

    /// The first of `rows` rows shown from a list of `count` when asked to show from
    /// `wanted`: never before the first row, and never so far that the last row leaves the
    /// bottom of the screen.
    public static func top(_ wanted: Int, rows: Int, count: Int) -> Int {
        min(max(0, wanted), max(0, count - rows))
    }

    /// The first of `rows` rows shown from a list of `count`, so that row `index` sits in the
    /// middle where it can.
    public static func top(centring index: Int, rows: Int, count: Int) -> Int {
        top(index - rows / 2, rows: rows, count: count)
    }
}
