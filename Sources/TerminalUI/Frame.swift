/// One full screen of text: exactly `height` lines, each exactly `width` columns, with
/// one style per line. Views produce frames from state alone; `TerminalScreen` only
/// copies them to the terminal. Keeping styles per line (not per character) is what
/// lets a frame stay plain `[String]` for snapshot tests while the terminal still gets
/// a bold title and a highlighted selection.
public struct Frame: Sendable, Equatable {
    /// How a whole line is drawn.
    public enum Style: Sendable, Equatable {
        /// Normal text.
        case plain
        /// Top bar of a screen (reverse video).
        case header
        /// The song title (bold).
        case title
        /// The progress bar (bold).
        case bar
        /// Secondary information: album line, hints (dim).
        case dim
        /// The status line while it reports a problem (bold).
        case alert
        /// The selected row of a list (reverse video).
        case selected
    }

    /// The text of each line.
    public private(set) var lines: [String]
    /// The style of each line; same count as `lines`.
    public private(set) var styles: [Style]
    /// Columns of every line.
    public let width: Int

    /// An empty frame of the given width.
    public init(width: Int) {
        self.width = max(0, width)
        lines = []
        styles = []
    }

    /// Appends `text`, cut or padded to exactly `width` columns.
    public mutating func append(_ text: String, style: Style = .plain) {
        lines.append(DisplayWidth.pad(text, to: width))
        styles.append(style)
    }

    /// Appends a blank line.
    public mutating func appendBlank() {
        append("")
    }

    /// Drops or adds blank lines at the end so there are exactly `height` lines.
    public mutating func fit(height: Int) {
        let height = max(0, height)
        if lines.count > height {
            lines.removeLast(lines.count - height)
            styles.removeLast(styles.count - height)
        }
        while lines.count < height { appendBlank() }
    }

    /// The columns every view leaves blank on each side of a screen `width` wide: two from
    /// 40 columns, one from 4, none below.
    public static func margin(width: Int) -> Int {
        width >= 40 ? 2 : (width >= 4 ? 1 : 0)
    }
}

/// A frame line before layout: its text, style and how much it matters when the screen
/// is too short to show everything. Views list their lines, then `Frame.layout` keeps
/// the most important ones in their original order.
struct FrameLine {
    /// The text, not yet fitted.
    var text: String
    /// The style.
    var style: Frame.Style = .plain
    /// Higher survives longer; spacers are 0.
    var priority: Int

    /// An empty line that is the first thing to go.
    static let spacer = FrameLine(text: "", priority: 0)
}

extension Frame {
    /// Lays out `top` lines from the top and `bottom` lines against the bottom of a
    /// `width` × `height` frame. When they do not all fit, the lowest-priority lines are
    /// dropped first (later ones first among equals); what stays keeps its order.
    static func layout(top: [FrameLine], bottom: [FrameLine], width: Int, height: Int) -> Frame {
        let all = top + bottom
        var keep = Array(repeating: true, count: all.count)
        var excess = all.count - max(0, height)
        if excess > 0 {
            let dropOrder = all.indices.sorted { lhs, rhs in
                all[lhs].priority != all[rhs].priority ? all[lhs].priority < all[rhs].priority : lhs > rhs
            }
            for index in dropOrder where excess > 0 {
                keep[index] = false
                excess -= 1
            }
        }
        var frame = Frame(width: width)
        for index in top.indices where keep[index] {
            frame.append(all[index].text, style: all[index].style)
        }
        let keptBottom = bottom.indices.filter { keep[top.count + $0] }
        while frame.lines.count + keptBottom.count < height { frame.appendBlank() }
        for index in keptBottom {
            frame.append(bottom[index].text, style: bottom[index].style)
        }
        return frame
    }
}
