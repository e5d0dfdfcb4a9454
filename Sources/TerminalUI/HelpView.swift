/// The help screen, generated from the key table in effect: one row per action with
/// its keys, its name (the word `config.toml [keys]` uses) and what it does, grouped by
/// where it applies. Because it reads `Keymap.bindings`, a remapped or unbound key is
/// documented exactly as it behaves.
public enum HelpView {
    /// Headings of the groups, in display order (the manual's KEYS section uses them too).
    public static let sections: [(title: String, contexts: [KeyContext])] = [
        ("Playing", [.global, .song]),
        ("In the channel list", [.channelList]),
        ("In the downloads", [.downloads]),
        ("In the lyrics", [.lyrics]),
        ("In the history", [.history]),
    ]

    /// The help screen as plain lines, exactly `height` × `width`, its body shown from line
    /// `first` on when it is taller than the screen.
    public static func render(_ keymap: Keymap, width: Int, height: Int, first: Int = 0) -> [String] {
        frame(keymap, width: width, height: height, first: first).lines
    }

    /// How many body lines (headings, rows and the blank lines between sections) a screen
    /// `height` rows tall shows: the title, a blank line and the footer take the rest.
    public static func visibleLines(height: Int) -> Int { max(1, height - 3) }

    /// The furthest the body scrolls on a screen `height` rows tall: 0 when it all fits.
    public static func lastFirst(_ keymap: Keymap, height: Int) -> Int {
        max(0, body(keymap, width: 80).count - visibleLines(height: height))
    }

    /// The help screen with a style per line. When the body is taller than the screen (the
    /// key table outgrew 80 × 24), it shows `visibleLines(height:)` of it from line `first`
    /// and the footer says how to scroll (↑ ↓ PgUp PgDn) and where the view is.
    public static func frame(_ keymap: Keymap, width: Int, height: Int, first: Int = 0) -> Frame {
        let indent = String(repeating: " ", count: Frame.margin(width: width))
        let body = body(keymap, width: width)
        let top = [FrameLine(text: " mhz keys", style: .header, priority: 4), .spacer]
        let visible = visibleLines(height: height)
        guard body.count > visible, height >= 4 else {
            let bottom = [FrameLine(text: indent + "Press any key to close.", style: .dim, priority: 5)]
            return Frame.layout(top: top + body, bottom: bottom, width: width, height: height)
        }
        let start = ListScreen.top(first, rows: visible, count: body.count)
        let shown = Array(body[start..<(start + visible)])
        let footer = indent + "↑ ↓ PgUp PgDn scroll, any other key closes (\(start + 1)–\(start + visible) of \(body.count))"
        return Frame.layout(top: top + shown, bottom: [FrameLine(text: footer, style: .dim, priority: 5)],
                            width: width, height: height)
    }

    /// The body: each section's heading and rows, a blank line between sections.
    private static func body(_ keymap: Keymap, width: Int) -> [FrameLine] {
        let margin = Frame.margin(width: width)
        let indent = String(repeating: " ", count: margin)
        let inner = max(0, width - 2 * margin)
        let rows = helpRows(keymap)
        let keyColumn = min(12, rows.map { DisplayWidth.width(of: $0.keys) }.max() ?? 0) + 2
        let actionColumn = min(16, rows.map { DisplayWidth.width(of: $0.action) }.max() ?? 0) + 2
        // The action names matter for config files but are the first thing to give up
        // on a narrow terminal; the description is what a reader needs.
        let showActions = inner >= keyColumn + actionColumn + 20

        var body: [FrameLine] = []
        for section in sections {
            if !body.isEmpty { body.append(.spacer) }
            // Same priority as the rows: on a short screen the help is cut from the end,
            // never leaving a heading without its rows.
            body.append(FrameLine(text: indent + section.title, style: .title, priority: 2))
            for row in rows where section.contexts.contains(row.context) {
                var text = DisplayWidth.pad(row.keys, to: keyColumn)
                if showActions { text += DisplayWidth.pad(row.action, to: actionColumn) }
                body.append(FrameLine(text: indent + text + row.help, priority: 2))
            }
        }
        return body
    }

    /// One row per action: keys as shown (`? h`, or `(none)` when unbound), name, help.
    public static func helpRows(_ keymap: Keymap) -> [(keys: String, action: String, help: String, context: KeyContext)] {
        keymap.bindings.map { binding in
            let keys = binding.keys.isEmpty ? "(none)" : binding.keys.map(\.label).joined(separator: " ")
            return (keys, binding.action, binding.help, binding.context)
        }
    }
}
