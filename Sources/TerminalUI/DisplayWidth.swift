import CNcurses
import Glibc

/// Terminal column arithmetic for strings: how many cells a string occupies, and how to
/// cut or fill it to an exact number of cells without splitting a character.
///
/// Widths come from `wcwidth` per Unicode scalar — the same function ncursesw uses to
/// advance its cursor — so a line this type measures as `n` columns is `n` columns in
/// ncurses' model of the screen too. A grapheme cluster (`Character`) is the sum of its
/// scalars: `é` written as `e` + U+0301 is 1, `中` is 2, `🇯🇵` is 1 + 1, and `👍🏽` is
/// 2 + 2 = 4 (a terminal that fuses the skin-tone modifier draws 2 cells, but ncurses
/// reserves 4; matching ncurses keeps every later column in place).
///
/// glibc's `wcwidth` only knows wide characters under a UTF-8 `LC_CTYPE`, and a process
/// starts in the "C" locale whatever `LANG` says. Rather than change the process locale
/// (a global other threads and libmpv read), measurement switches the *calling thread*
/// to a private `C.UTF-8` locale with `uselocale` for the duration of one call. If that
/// locale cannot be created, a built-in East-Asian-Width table takes over.
public enum DisplayWidth {
    /// The horizontal ellipsis appended to cut text; one column wide.
    public static let ellipsis = "…"

    /// Columns taken by one scalar: 0 for controls and combining marks, 2 for wide
    /// (CJK, most emoji), else 1.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        if let quick = asciiWidth(scalar) { return quick }
        return UTF8Locale.shared.withThreadLocale { measure(scalar) }
    }

    /// Columns taken by one grapheme cluster: the sum of its scalars.
    public static func width(of character: Character) -> Int {
        columns(of: character.unicodeScalars)
    }

    /// Columns taken by a string: the sum of its scalars.
    public static func width(of string: some StringProtocol) -> Int {
        columns(of: string.unicodeScalars)
    }

    /// Cuts `string` to at most `columns` columns. Text that fits comes back unchanged
    /// (apart from `sanitize`). Text that does not is cut between grapheme clusters,
    /// gets `…`, and is then padded with spaces so the result is exactly `columns` wide
    /// even when the next character was a wide one that would have straddled the edge.
    public static func truncate(_ string: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        let text = sanitize(string)
        if width(of: text) <= columns { return text }
        if columns == 1 { return ellipsis }
        let budget = columns - 1
        var kept = ""
        var used = 0
        UTF8Locale.shared.withThreadLocale {
            for character in text {
                let w = measure(character.unicodeScalars)
                if used + w > budget { break }
                kept.append(character)
                used += w
            }
        }
        // "Hello …" reads worse than "Hello…"; the freed columns become padding.
        while kept.last == " " {
            kept.removeLast()
            used -= 1
        }
        return kept + ellipsis + String(repeating: " ", count: budget - used)
    }

    /// Fits `string` into exactly `columns` columns, left-aligned: truncated as by
    /// `truncate(_:to:)` when too wide, padded with trailing spaces when too narrow.
    public static func pad(_ string: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        let cut = truncate(string, to: columns)
        return cut + String(repeating: " ", count: max(0, columns - width(of: cut)))
    }

    /// Fits `string` into exactly `columns` columns, right-aligned (leading spaces).
    public static func padLeading(_ string: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        let cut = truncate(string, to: columns)
        return String(repeating: " ", count: max(0, columns - width(of: cut))) + cut
    }

    /// Puts `left` and `right` on one line of exactly `columns` columns with `right`
    /// flush against the end. `right` wins the space: `left` is cut first.
    public static func spread(_ left: String, _ right: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        let rightText = truncate(right, to: columns)
        let rightWidth = width(of: rightText)
        guard rightWidth > 0 else { return pad(left, to: columns) }
        let room = columns - rightWidth
        guard room > 1 else { return padLeading(rightText, to: columns) }
        // One column of air keeps the two halves from running together.
        return pad(left, to: room - 1) + " " + rightText
    }

    /// Breaks `string` into lines of at most `columns` columns, at spaces where possible
    /// and between wide characters (CJK has no spaces), else anywhere between grapheme
    /// clusters. Lines are not padded. When more than `maxLines` would be needed, the
    /// last one is cut with `…`.
    public static func wrap(_ string: String, to columns: Int, maxLines: Int = .max) -> [String] {
        guard columns > 0, maxLines > 0 else { return [] }
        let text = sanitize(string)
        var lines: [String] = []
        var start = text.startIndex
        while true {
            while start < text.endIndex && text[start] == " " { start = text.index(after: start) }
            guard start < text.endIndex else { break }
            let rest = text[start...]
            if lines.count == maxLines - 1 || width(of: rest) <= columns {
                lines.append(truncate(String(rest), to: columns).trimmingSuffix(" "))
                break
            }
            var used = 0
            var index = start
            var lastBreak: String.Index?
            while index < text.endIndex {
                let columnsOfCharacter = width(of: text[index])
                if used + columnsOfCharacter > columns { break }
                used += columnsOfCharacter
                index = text.index(after: index)
                if columnsOfCharacter == 2 || (index < text.endIndex && text[index] == " ") { lastBreak = index }
            }
            var end = index < text.endIndex && text[index] != " " ? (lastBreak ?? index) : index
            // A single character wider than the line still has to go somewhere.
            if end == start { end = text.index(after: start) }
            lines.append(String(text[start..<end]).trimmingSuffix(" "))
            start = end
        }
        return lines
    }

    /// Makes text safe to hand to ncurses as one line: line breaks and tabs become
    /// spaces, other control characters (which ncurses would print as `^X`, two columns
    /// this type did not count) are dropped.
    public static func sanitize(_ string: String) -> String {
        guard string.unicodeScalars.contains(where: isControl) else { return string }
        var out = String.UnicodeScalarView()
        for scalar in string.unicodeScalars {
            if !isControl(scalar) {
                out.append(scalar)
            } else if isBreakingSpace(scalar) {
                out.append(" ")
            }
        }
        return String(out)
    }

    // MARK: - Measuring

    private static func columns(of scalars: some Collection<Unicode.Scalar>) -> Int {
        var total = 0
        var needsLocale = false
        for scalar in scalars {
            guard let quick = asciiWidth(scalar) else {
                needsLocale = true
                break
            }
            total += quick
        }
        guard needsLocale else { return total }
        return UTF8Locale.shared.withThreadLocale { measure(scalars) }
    }

    /// Sum of widths; the caller has already switched the thread to the UTF-8 locale.
    private static func measure(_ scalars: some Sequence<Unicode.Scalar>) -> Int {
        scalars.reduce(0) { $0 + measure($1) }
    }

    private static func measure(_ scalar: Unicode.Scalar) -> Int {
        if let quick = asciiWidth(scalar) { return quick }
        if isControl(scalar) { return 0 }
        guard UTF8Locale.shared.isAvailable else { return EastAsianWidth.width(of: scalar) }
        // wcwidth answers -1 for what it considers unprintable (unassigned code points,
        // private surrogates); ncurses then prints nothing, so count nothing.
        return max(0, Int(cnc_wcwidth(scalar.value)))
    }

    /// Printable ASCII is 1 and ASCII controls 0 without asking libc.
    @inline(__always)
    private static func asciiWidth(_ scalar: Unicode.Scalar) -> Int? {
        let value = scalar.value
        if value >= 0x20 && value < 0x7F { return 1 }
        if value < 0x20 || value == 0x7F { return 0 }
        return nil
    }

    /// C0 and C1 controls, DEL, and the Unicode line/paragraph separators: what must not
    /// reach ncurses as text.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (value >= 0x7F && value < 0xA0) || value == 0x2028 || value == 0x2029
    }

    private static func isBreakingSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }
}
